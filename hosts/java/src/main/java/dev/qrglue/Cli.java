package dev.qrglue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code qrglue} on the JVM (hosts/java/bin/qrglue): the Rust, Node and Python CLIs' commands, flags
 * and exit codes.
 *
 * <pre>
 * qrglue png|svg|text (TEXT | --data-file PATH) [-o FILE] [--path auto|native|compiled|interpreted]
 *     [the option flags: Contract.CLI_FLAGS, generated from the contract's table]
 * </pre>
 *
 * Exit status: 0 written; 1 the generator refused the input ({@code qrglue: <kind>: <message>}); 2 a
 * bad command line; 3 the payload could not be read, the output could not be written or the path
 * could not run (a guest trap).
 */
public final class Cli {
    static final int EXIT_QR_ERROR = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_FAILURE = 3;
    static final String VERSION = "qrglue 0.2.0";

    private static final Set<String> COMMANDS = Set.of("png", "svg", "text");
    /** The option flags that take no value and those that take one, from the generated table. */
    private static final Set<String> FLAGS = optionFlags(false);

    private static final Set<String> VALUED = java.util.stream.Stream.concat(
                    Stream.of("-o", "--output", "--data-file", "--path"), optionFlags(true).stream())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** The flags only one command takes (svg's own, text's style), from the generated table. */
    private static final Map<String, String> ONLY_FOR = Contract.CLI_FLAGS.stream()
            .filter(f -> f.command() != null)
            .collect(java.util.stream.Collectors.toUnmodifiableMap(f -> "--" + f.flag(), Contract.CliFlag::command));

    private static Set<String> optionFlags(boolean valued) {
        return Contract.CLI_FLAGS.stream()
                .filter(f -> (f.value() != null) == valued)
                .map(f -> "--" + f.flag())
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    private static final String USAGE = "usage: qrglue {png,svg,text} (TEXT | --data-file PATH) [-o FILE] "
            + "[--path auto|native|compiled|interpreted] " + usageOf(null) + " (svg: " + usageOf("svg") + "; text: "
            + usageOf("text") + ")";

    /** The option flags of one command (null: every command's), as the usage line shows them. */
    private static String usageOf(String command) {
        return Contract.CLI_FLAGS.stream()
                .filter(f -> Objects.equals(f.command(), command))
                .map(f -> "[--" + f.flag()
                        + switch (f.type()) {
                            case "bool" -> "";
                            case "u32", "option-u32" -> " N";
                            case "ec-level" -> " " + String.join("|", Contract.EC_LEVELS);
                            case "text-style" -> " " + String.join("|", Contract.TEXT_STYLES);
                            default -> " " + f.value();
                        }
                        + "]")
                .collect(java.util.stream.Collectors.joining(" "));
    }

    private final InputStream stdin;
    private final PrintStream stdout;
    private final PrintStream stderr;
    private final boolean stdoutIsTerminal;

    Cli(InputStream stdin, PrintStream stdout, PrintStream stderr, boolean stdoutIsTerminal) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.stdoutIsTerminal = stdoutIsTerminal;
    }

    /**
     * Runs the command line and exits with its status (the class comment lists them).
     *
     * @param args the command and its flags, as {@code qrglue --help} lists them
     */
    public static void main(String[] args) {
        var console = System.console();
        boolean terminal = console != null && console.isTerminal();
        System.exit(new Cli(System.in, System.out, System.err, terminal).run(args));
    }

    /** A bad command line: exit 2 with the message and the usage. */
    private static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    int run(String[] args) {
        if (args.length == 1 && (args[0].equals("-V") || args[0].equals("--version"))) {
            stdout.println(VERSION);
            return 0;
        }
        if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
            stdout.println(USAGE);
            return 0;
        }
        String command;
        Map<String, String> values = new HashMap<>();
        String text = null;
        try {
            if (args.length == 0 || !COMMANDS.contains(args[0])) {
                throw new UsageException(
                        args.length == 0
                                ? "a command is required (png, svg, text)"
                                : "unknown command '" + args[0] + "' (png, svg, text)");
            }
            command = args[0];
            boolean positionalOnly = false;
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (!positionalOnly && arg.equals("--")) {
                    positionalOnly = true;
                } else if (!positionalOnly && (FLAGS.contains(arg) || VALUED.contains(arg))) {
                    String only = ONLY_FOR.get(arg);
                    if (only != null && !only.equals(command)) {
                        throw new UsageException("unrecognized argument for " + command + ": " + arg);
                    }
                    if (values.containsKey(arg)) {
                        throw new UsageException("argument " + arg + " given twice");
                    }
                    if (FLAGS.contains(arg)) {
                        values.put(arg, "");
                    } else if (i + 1 >= args.length) {
                        throw new UsageException("argument " + arg + ": expected one value");
                    } else {
                        values.put(arg.equals("-o") ? "--output" : arg, args[++i]);
                    }
                } else if (!positionalOnly && arg.startsWith("-") && arg.length() > 1) {
                    throw new UsageException("unrecognized argument: " + arg);
                } else if (text == null) {
                    text = arg;
                } else {
                    throw new UsageException("unexpected extra argument: " + arg);
                }
            }
            if ((text == null) == !values.containsKey("--data-file")) {
                throw new UsageException("give TEXT or --data-file PATH, exactly one");
            }
        } catch (UsageException e) {
            stderr.println(USAGE);
            stderr.println("qrglue: error: " + e.getMessage());
            return EXIT_USAGE;
        }
        try {
            return render(command, values, text);
        } catch (UsageException e) {
            stderr.println(USAGE);
            stderr.println("qrglue: error: " + e.getMessage());
            return EXIT_USAGE;
        }
    }

    private int render(String command, Map<String, String> values, String text) throws UsageException {
        // auto: the fastest path this machine can run (the native library if it loads, else compiled).
        Engine engine = switch (values.getOrDefault("--path", "auto")) {
            case "auto" -> Engine.auto();
            case "native" -> Engine.NATIVE;
            case "compiled" -> Engine.COMPILED;
            case "interpreted" -> Engine.INTERPRETED;
            default ->
                throw new UsageException("argument --path: invalid choice '" + values.get("--path")
                        + "' (choose from auto, native, compiled, interpreted)");
        };
        // Every option flag every command takes, as the generated table types it.
        Options.Builder options = Options.builder();
        for (Contract.CliFlag f : Contract.CLI_FLAGS) {
            String flag = "--" + f.flag();
            if (f.command() != null || !values.containsKey(flag)) {
                continue;
            }
            options.set(
                    f.name(),
                    switch (f.type()) {
                        case "bool" -> true;
                        case "u32", "option-u32" -> u32(values, flag);
                        case "ec-level" -> ecLevel(values.get(flag));
                        default -> values.get(flag);
                    });
        }
        TextStyle style = TextStyle.HALF_BLOCKS;
        if (values.containsKey("--style")) {
            String name = values.get("--style");
            style = List.of(TextStyle.values()).stream()
                    .filter(s -> s.witName().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new UsageException("argument --style: invalid choice '" + name
                            + "' (choose from half-blocks, half-blocks-inverted, ascii)"));
        }
        String output = values.get("--output");
        if (command.equals("png") && output == null && stdoutIsTerminal) {
            // Binary on a terminal garbles it; `-o -` says the caller means it.
            stderr.println("qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it");
            return EXIT_USAGE;
        }
        byte[] payload = null;
        String dataFile = values.get("--data-file");
        if (dataFile != null) {
            try {
                payload = readPayload(dataFile);
            } catch (IOException e) {
                String source = dataFile.equals("-") ? "standard input" : dataFile;
                stderr.println("qrglue: cannot read the payload from " + source + ": " + e.getMessage());
                return EXIT_FAILURE;
            }
        }
        byte[] out;
        try {
            QrGenerator generator = engine == Engine.COMPILED ? Qrglue.generator() : new QrGenerator(engine, 1);
            Options built = options.build();
            out = switch (command) {
                case "png" -> payload != null ? generator.png(payload, built) : generator.png(text, built);
                case "svg" -> {
                    SvgOptions svg = new SvgOptions(
                            values.containsKey("--view-box-only"), values.get("--title"), values.get("--class"));
                    yield (payload != null ? generator.svg(payload, built, svg) : generator.svg(text, built, svg))
                            .getBytes(StandardCharsets.UTF_8);
                }
                default ->
                    (payload != null ? generator.text(payload, built, style) : generator.text(text, built, style))
                            .getBytes(StandardCharsets.UTF_8);
            };
        } catch (QrException e) {
            stderr.println("qrglue: " + e.kind() + ": " + e.getMessage());
            return EXIT_QR_ERROR;
        } catch (RuntimeException e) { // a guest trap: the path could not run
            stderr.println("qrglue: " + e.getMessage());
            return EXIT_FAILURE;
        }
        try {
            if (output == null || output.equals("-")) {
                stdout.write(out);
                stdout.flush();
                if (stdout.checkError()) {
                    throw new IOException("the stream was closed");
                }
            } else {
                try (OutputStream file = Files.newOutputStream(Path.of(output))) {
                    file.write(out);
                }
            }
        } catch (IOException | RuntimeException e) {
            stderr.println(
                    "qrglue: cannot write " + (output == null ? "standard output" : output) + ": " + e.getMessage());
            return EXIT_FAILURE;
        }
        return 0;
    }

    /** The WIT names, exactly, as every library and the other CLIs take them (docs/contract.md). */
    private static EcLevel ecLevel(String value) throws UsageException {
        try {
            return EcLevel.fromWitName(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("argument --ec-level: invalid value '" + value + "' [possible values: "
                    + String.join(", ", Contract.EC_LEVELS) + "]");
        }
    }

    /** At most one byte past the longest payload: enough for data-too-long without reading it all. */
    private byte[] readPayload(String path) throws IOException {
        if (path.equals("-")) {
            return stdin.readNBytes(Contract.MAX_TEXT_BYTES + 1);
        }
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            return in.readNBytes(Contract.MAX_TEXT_BYTES + 1);
        }
    }

    /** As the Rust CLI parses its u32 flags: the contract's bounds are the generator's (exit 1). */
    private static long u32(Map<String, String> values, String flag) throws UsageException {
        String value = values.get(flag);
        String digits = value.startsWith("+") ? value.substring(1) : value;
        if (digits.isEmpty()
                || digits.length() > 10
                || !digits.chars().allMatch(c -> c >= '0' && c <= '9')
                || Long.parseLong(digits) > 0xffff_ffffL) {
            throw new UsageException(
                    "argument " + flag + ": invalid value '" + value + "': not an integer within 0..=4294967295");
        }
        return Long.parseLong(digits);
    }
}

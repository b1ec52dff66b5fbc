package dev.qrglue.server;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.client.j2se.MatrixToImageConfig;
import com.google.zxing.client.j2se.MatrixToImageWriter;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import dev.qrglue.Contract;
import dev.qrglue.EcLevel;
import dev.qrglue.Engine;
import dev.qrglue.HttpQuery;
import dev.qrglue.Options;
import dev.qrglue.QrException;
import dev.qrglue.QrGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One generator per tier: the parsed query -> the PNG, or a refusal (HttpError, QrException). */
final class Tiers {
    private Tiers() {}

    static final List<String> NAMES = List.of("zxing", "cli", "raw", "native", "static");

    interface Generator {
        byte[] png(HttpQuery.Request query);

        /**
         * Whether the tier answers without a qrglue generator (static, zxing): the grammar then refuses an
         * empty text and options out of the generator's bounds (QRGLUE_QUERY_ALONE), as the Go server's do.
         */
        default boolean alone() {
            return false;
        }

        /** Whether a call blocks on something else (a process): run it off the event loop. */
        default boolean blocking() {
            return false;
        }
    }

    static Generator forTier(String tier) {
        return switch (tier) {
            case "raw" -> library(Engine.COMPILED);
            case "native" -> library(Engine.NATIVE);
            case "static" -> golden();
            case "zxing" -> new Zxing();
            case "cli" -> new Cli();
            default -> throw new IllegalArgumentException("no tier " + tier);
        };
    }

    /** The qrglue library on one path; the empty text goes in too, so the library words empty-text. */
    private static Generator library(Engine engine) {
        QrGenerator gen = new QrGenerator(engine);
        gen.png(QueryGrammar.REFERENCE_TEXT); // load now: the first request is not the one to pay for it
        return query -> gen.png(query.text(), query.options());
    }

    /** The reference URL's golden PNG, made once, for every request that passes the same checks. */
    private static Generator golden() {
        byte[] png = new QrGenerator(Engine.COMPILED, 1).png(QueryGrammar.REFERENCE_TEXT);
        return new Generator() {
            @Override
            public byte[] png(HttpQuery.Request query) {
                return png; // the grammar, alone, has checked everything the generator would
            }

            @Override
            public boolean alone() {
                return true;
            }
        };
    }

    /**
     * Tier 0: ZXing's QRCodeWriter + MatrixToImageWriter, its own encoder and PNG. The contract's checks
     * are the grammar's, alone (no qrglue call here), then what ZXing has; what it lacks is a 501.
     */
    static final class Zxing implements Generator {
        private static final Map<EcLevel, ErrorCorrectionLevel> LEVELS = new EnumMap<>(Map.of(
                EcLevel.LOW, ErrorCorrectionLevel.L,
                EcLevel.MEDIUM, ErrorCorrectionLevel.M,
                EcLevel.QUARTILE, ErrorCorrectionLevel.Q,
                EcLevel.HIGH, ErrorCorrectionLevel.H));
        /** The library on the native path (the query grammar's own): its data-too-long is this tier's. */
        private static final QrGenerator LIBRARY = new QrGenerator(Engine.NATIVE);
        /** The options ZXing has (Java names); mask as its mask hint, eci as its UTF-8 charset. */
        private static final Set<String> ZXING_HAS =
                Set.of("ecLevel", "minSize", "quietZone", "scale", "dark", "light", "version", "mask", "eci");

        /** An option's WIT name (the messages') from its Java name: minVersion is min-version. */
        private static String witName(String javaName) {
            return javaName.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
        }

        @Override
        public boolean alone() {
            return true;
        }

        @Override
        public byte[] png(HttpQuery.Request query) {
            Options o = query.options();
            // The first option ZXing does not have (not at its default), in the table's order, by its WIT name:
            // a new option is refused until this tier learns it.
            for (Contract.CliFlag f : Contract.CLI_FLAGS) {
                if (f.command() == null
                        && !ZXING_HAS.contains(f.name())
                        && !o.get(f.name()).equals(Options.DEFAULTS.get(f.name()))) {
                    throw new HttpError("not-implemented", "zxing has no " + witName(f.name()) + " option", 501);
                }
            }
            Map<EncodeHintType, Object> hints = new EnumMap<>(EncodeHintType.class);
            hints.put(EncodeHintType.ERROR_CORRECTION, LEVELS.get(o.ecLevel()));
            hints.put(EncodeHintType.MARGIN, (int) o.quietZone());
            // ZXing's byte mode is ISO-8859-1 unless told: UTF-8, which it marks with an ECI designator.
            boolean latin1 = StandardCharsets.ISO_8859_1.newEncoder().canEncode(query.text());
            if (o.eci() || !latin1) {
                hints.put(EncodeHintType.CHARACTER_SET, "UTF-8");
            }
            if (o.version().isPresent()) {
                hints.put(EncodeHintType.QR_VERSION, (int) o.version().getAsLong());
            }
            if (o.mask().isPresent()) {
                hints.put(EncodeHintType.QR_MASK_PATTERN, (int) o.mask().getAsLong());
            }
            QRCodeWriter writer = new QRCodeWriter();
            try {
                int size;
                if (o.scale().isPresent()) {
                    // The unscaled symbol (margin included) times the scale.
                    int modules = writer.encode(query.text(), BarcodeFormat.QR_CODE, 0, 0, hints)
                            .getWidth();
                    size = modules * (int) o.scale().getAsLong();
                } else {
                    size = (int) o.minSize();
                }
                BitMatrix matrix = writer.encode(query.text(), BarcodeFormat.QR_CODE, size, size, hints);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                MatrixToImageWriter.writeToStream(
                        matrix, "PNG", out, new MatrixToImageConfig(argb(o.dark()), argb(o.light())));
                return out.toByteArray();
            } catch (WriterException e) {
                // A version too small for the text (or a text too long at this level): the generator's
                // data-too-long, whose message (the limit hit, in bits) ZXing has no words for. The library's own
                // error for the same text and options names it (a QrException, answered as any tier's).
                LIBRARY.png(query.text(), o);
                throw new IllegalStateException("ZXing refused a text the library fits", e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** "#rrggbbaa" (as the grammar gives every colour) -> ARGB. */
        private static int argb(String color) {
            long rgba = Long.parseLong(color.substring(1), 16);
            return (int) (((rgba & 0xff) << 24) | (rgba >>> 8));
        }
    }

    /**
     * Tier cli: the Rust CLI per request (as the node and python servers' tier cli), the text on its
     * standard input (no argument carries a NUL): ec-level, min-size, quiet-zone and the colours always
     * (the query's or the defaults), the others only when the query gives them (as the Go server's).
     */
    static final class Cli implements Generator {
        private static final Pattern REFUSAL = Pattern.compile("qrglue: ([a-z-]+): (.*)\\n?");
        private final String cli;

        Cli() {
            String given = System.getenv("QRGLUE_CLI");
            cli = given != null
                    ? given
                    : Path.of(System.getProperty("qrglue.repo", "."), "target", "host", "qrglue")
                            .toString();
        }

        @Override
        public boolean blocking() {
            return true;
        }

        @Override
        public byte[] png(HttpQuery.Request query) {
            Options o = query.options();
            List<String> argv = new ArrayList<>(List.of(cli, "png", "-o", "-", "--path", "native", "--text-stdin"));
            // Every option the query gave or defaulted, by the CLI's generated flag table: a bool is its flag
            // when true, a number, colour or level its flag and value (the level by its WIT name).
            for (Contract.CliFlag f : Contract.CLI_FLAGS) {
                if (f.command() != null) {
                    continue;
                }
                String flag = "--" + f.flag();
                switch (o.get(f.name())) {
                    case Boolean on when on -> argv.add(flag);
                    case Boolean off -> {}
                    case OptionalLong n when n.isPresent() -> argv.addAll(List.of(flag, Long.toString(n.getAsLong())));
                    case OptionalLong none -> {}
                    case EcLevel level -> argv.addAll(List.of(flag, level.witName()));
                    case Object value -> argv.addAll(List.of(flag, value.toString()));
                }
            }
            try {
                Process child = new ProcessBuilder(argv).start();
                try (OutputStream stdin = child.getOutputStream()) {
                    stdin.write(query.text().getBytes(StandardCharsets.UTF_8));
                } catch (IOException early) {
                    // A child that exits early: its exit code says why.
                }
                byte[] err;
                byte[] out;
                // stderr is small (one line); read stdout first, then stderr, then the exit code.
                try (InputStream stdout = child.getInputStream();
                        InputStream stderr = child.getErrorStream()) {
                    out = stdout.readAllBytes();
                    err = stderr.readAllBytes();
                }
                if (!child.waitFor(30, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                    throw new IllegalStateException("the qrglue CLI did not exit");
                }
                int code = child.exitValue();
                String stderr = new String(err, StandardCharsets.UTF_8);
                Matcher line = REFUSAL.matcher(stderr);
                if (code == 0) {
                    return out;
                }
                if (code == 1 && line.matches()) {
                    throw new HttpError(line.group(1), line.group(2));
                }
                throw new IllegalStateException("qrglue CLI exited " + code + ": " + stderr.strip());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** A refusal of the library, as the contract's kind and message. */
    static HttpError fromLibrary(QrException e) {
        return new HttpError(e.kind(), e.getMessage());
    }
}

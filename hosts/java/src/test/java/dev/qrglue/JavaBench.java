package dev.qrglue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.client.j2se.MatrixToImageWriter;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import io.nayuki.qrcodegen.QrCode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.imageio.ImageIO;

/**
 * Java's rows of `just bench`'s report (target/bench/java.json, tests/bench/schema.json): png on the
 * reference text (ref-02) per Java path and Java's peers, each measured in FORKS fresh JVMs (the JIT's
 * state differs between runs: forks give the spread JMH's forks give), each fork: JVM start to the first
 * PNG (cold start), the first call, a warm-up, then timed calls (steady state), and an empty call per
 * qrglue path. JMH itself is not used: its annotation processor and its uber-jar would be a second build
 * of the test classes for five subjects; this harness does what its forks and warm-up iterations do.
 *
 * <p>Usage: JavaBench --out FILE [--quick]; internally JavaBench --fork SUBJECT WARMUP CALLS TEXT.
 */
public final class JavaBench {
    private JavaBench() {}

    static final String REFERENCE = "ref-02";
    /** Every JVM the bench starts runs with the JIT setting the host's README recommends. */
    static final List<String> JVM_FLAGS =
            List.of("-XX:-DontCompileHugeMethods", "--enable-native-access=ALL-UNNAMED", "-Xms256m");

    /** Subject -> {warm-up calls, timed calls}: the interpreter gets a twentieth. */
    static final Map<String, int[]> SUBJECTS = new LinkedHashMap<>();

    static {
        SUBJECTS.put("native", new int[] {20_000, 10_000});
        // C1 gives up on the largest compiled wasm functions ("out of virtual registers"), so they run
        // in HotSpot's interpreter and OSR code until C2 compiles them whole, after thousands of calls:
        // the steady state needs a long warm-up (hosts/java/README.md).
        SUBJECTS.put("compiled", new int[] {12_000, 2_000});
        SUBJECTS.put("interpreted", new int[] {150, 100});
        // guest/extism through Extism's Chicory SDK: run-time compiled to bytecode, the same C2 warm-up.
        SUBJECTS.put("extism", new int[] {12_000, 2_000});
        SUBJECTS.put("zxing", new int[] {3_000, 2_000});
        SUBJECTS.put("qrcodegen", new int[] {3_000, 2_000});
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--fork")) {
            fork(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]);
            return;
        }
        // The forks get the text on their command line: a fork's cold start is then the JVM, the path's
        // loading and one call, with no JSON parsed first. ref-02 is drawn with the default options.
        JsonNode testCase = Corpus.cases().stream()
                .filter(c -> c.get("id").asText().equals(REFERENCE))
                .findFirst()
                .orElseThrow();
        if (!Corpus.options(testCase).equals(Options.DEFAULTS)) {
            throw new IllegalStateException(REFERENCE + " no longer has the default options: pass them to the forks");
        }
        String text = testCase.get("text").asText();
        Path out = Path.of(args[1]);
        boolean quick = args.length > 2 && args[2].equals("--quick");
        int forks = quick ? 1 : 3;
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("java.class.path");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (var subject : SUBJECTS.entrySet()) {
            int warmup = subject.getValue()[0] / (quick ? 10 : 1);
            int calls = subject.getValue()[1] / (quick ? 10 : 1);
            List<JsonNode> runs = new ArrayList<>();
            for (int f = 0; f < forks; f++) {
                List<String> command = new ArrayList<>(List.of(java));
                command.addAll(JVM_FLAGS);
                command.add("-Dqrglue.repo=" + Corpus.repo());
                command.addAll(List.of("-cp", classpath, JavaBench.class.getName(), "--fork", subject.getKey()));
                command.addAll(List.of(Integer.toString(warmup), Integer.toString(calls), text));
                Process p = new ProcessBuilder(command)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                String line = new String(p.getInputStream().readAllBytes()).strip();
                if (p.waitFor() != 0) {
                    throw new IllegalStateException(subject.getKey() + ": fork exited " + p.exitValue());
                }
                runs.add(Corpus.JSON.readTree(line));
                System.err.printf(
                        "java bench: %-12s fork %d: cold start %.0f ms, first call %.1f ms, steady median %.1f µs%n",
                        subject.getKey(),
                        f + 1,
                        runs.getLast().get("cold_start_ns").asDouble() / 1e6,
                        runs.getLast().get("first_call_ns").asDouble() / 1e6,
                        median(longs(runs.getLast().get("png_ns"))) / 1e3);
            }
            rows.addAll(measurements(subject.getKey(), runs));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("host", "java");
        report.put("machine", machine());
        report.put("quick", quick);
        report.put("measurements", rows);
        Files.createDirectories(out.getParent());
        Files.writeString(out, Corpus.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report) + "\n");
        System.err.println("java bench: " + rows.size() + " series -> " + out);
    }

    /** The schema's rows: png (steady state, every fork's calls pooled), first-call, cold-start, noop. */
    private static List<Map<String, Object>> measurements(String subject, List<JsonNode> runs) {
        List<Map<String, Object>> rows = new ArrayList<>();
        long[] png = runs.stream()
                .flatMapToLong(r -> Arrays.stream(longs(r.get("png_ns"))))
                .toArray();
        JsonNode first = runs.getFirst();
        rows.add(row(
                subject,
                "png",
                REFERENCE,
                png,
                first.get("output_bytes").asLong(),
                first.get("sha256").asText()));
        long[] firstCalls =
                runs.stream().mapToLong(r -> r.get("first_call_ns").asLong()).toArray();
        rows.add(row(
                subject,
                "first-call",
                REFERENCE,
                firstCalls,
                first.get("output_bytes").asLong(),
                null));
        long[] cold =
                runs.stream().mapToLong(r -> r.get("cold_start_ns").asLong()).toArray();
        rows.add(row(
                subject,
                "cold-start",
                REFERENCE,
                cold,
                first.get("output_bytes").asLong(),
                null));
        if (first.has("noop_ns")) {
            long[] noop = runs.stream()
                    .flatMapToLong(r -> Arrays.stream(longs(r.get("noop_ns"))))
                    .toArray();
            rows.add(row(subject, "noop", null, noop, null, null));
        }
        return rows;
    }

    private static Map<String, Object> row(
            String path, String op, String textId, long[] ns, Long outputBytes, String sha256) {
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", path);
        m.put("op", op);
        m.put("text_id", textId);
        m.put("bytes", null);
        m.put("median_ns", Math.max(1, median(sorted)));
        m.put("p10_ns", Math.max(1, sorted[(int) (0.1 * (sorted.length - 1))]));
        m.put("p90_ns", Math.max(1, sorted[(int) Math.ceil(0.9 * (sorted.length - 1))]));
        m.put("samples", sorted.length);
        m.put("output_bytes", outputBytes);
        m.put("sha256", sha256);
        return m;
    }

    private static long[] longs(JsonNode array) {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    private static String machine() {
        String model = "unknown cpu";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    model = line.substring(line.indexOf(':') + 1).strip();
                    break;
                }
            }
        } catch (IOException e) {
            // the model stays unknown
        }
        return model + ", " + Runtime.getRuntime().availableProcessors() + " logical cores, "
                + System.getProperty("java.vm.name") + " " + Runtime.version() + ", Chicory 1.7.5, "
                + String.join(" ", JVM_FLAGS);
    }

    /** One fresh JVM: cold start and first call, warm-up, timed calls; one JSON line on stdout. */
    private static void fork(String subject, int warmup, int calls, String text) throws Exception {
        Options options = Options.DEFAULTS;
        long t0 = System.nanoTime();
        Supplier<byte[]> png = subject(subject, text, options);
        Runnable noop = noop(subject);
        byte[] out = png.get();
        long firstCall = System.nanoTime() - t0;
        // JVM start (the process's start time) to the first PNG in hand.
        long coldStart = (System.currentTimeMillis()
                        - ManagementFactory.getRuntimeMXBean().getStartTime())
                * 1_000_000L;
        for (int i = 0; i < warmup; i++) {
            png.get();
        }
        long[] ns = new long[calls];
        for (int i = 0; i < calls; i++) {
            long s = System.nanoTime();
            png.get();
            ns[i] = System.nanoTime() - s;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("cold_start_ns", coldStart);
        result.put("first_call_ns", firstCall);
        result.put("output_bytes", out.length);
        result.put("sha256", Corpus.sha256(out));
        result.put("png_ns", ns);
        if (noop != null) {
            // Timed in batches of 100: one empty call is below the clock's useful resolution.
            for (int i = 0; i < 10_000; i++) {
                noop.run();
            }
            long[] noopNs = new long[200];
            for (int b = 0; b < noopNs.length; b++) {
                long s = System.nanoTime();
                for (int i = 0; i < 100; i++) {
                    noop.run();
                }
                noopNs[b] = (System.nanoTime() - s) / 100;
            }
            result.put("noop_ns", noopNs);
        }
        System.out.println(Corpus.JSON.writeValueAsString(result));
    }

    private static Supplier<byte[]> subject(String subject, String text, Options options) {
        return switch (subject) {
            case "native", "compiled", "interpreted", "extism" -> {
                QrGenerator gen = new QrGenerator(Engine.valueOf(subject.toUpperCase(java.util.Locale.ROOT)), 1);
                yield () -> gen.png(text, options);
            }
            case "zxing" -> zxing(text);
            case "qrcodegen" -> qrcodegen(text);
            default -> throw new IllegalArgumentException(subject);
        };
    }

    private static Runnable noop(String subject) {
        return switch (subject) {
            case "native", "compiled", "interpreted", "extism" -> {
                QrGenerator gen = new QrGenerator(Engine.valueOf(subject.toUpperCase(java.util.Locale.ROOT)), 1);
                yield gen::noop;
            }
            default -> null;
        };
    }

    /** ZXing: QRCodeWriter at level L, margin 4, 200 px, then MatrixToImageWriter's PNG (ImageIO). */
    private static Supplier<byte[]> zxing(String text) {
        QRCodeWriter writer = new QRCodeWriter();
        Map<EncodeHintType, Object> hints = new EnumMap<>(EncodeHintType.class);
        hints.put(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.L);
        hints.put(EncodeHintType.MARGIN, 4);
        return () -> {
            try {
                var matrix = writer.encode(text, BarcodeFormat.QR_CODE, 200, 200, hints);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                MatrixToImageWriter.writeToStream(matrix, "PNG", out);
                return out.toByteArray();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /**
     * Nayuki's qrcodegen: QrCode.encodeText at level LOW, drawn (quiet zone 4, the smallest integer scale
     * reaching 200 px, as qrglue's min-size) into a 1-bit image and written by ImageIO: the library
     * makes no PNG itself.
     */
    private static Supplier<byte[]> qrcodegen(String text) {
        return () -> {
            QrCode qr = QrCode.encodeText(text, QrCode.Ecc.LOW);
            int modules = qr.size + 8;
            int scale = (200 + modules - 1) / modules;
            // The image's 1-bit rows packed directly (no setRGB per pixel): 0 is dark in this palette.
            int side = modules * scale;
            int stride = (side + 7) / 8;
            byte[] bits = new byte[stride * side];
            Arrays.fill(bits, (byte) 0xff);
            for (int y = 0; y < side; y++) {
                for (int x = 0; x < side; x++) {
                    if (qr.getModule(x / scale - 4, y / scale - 4)) {
                        bits[y * stride + x / 8] &= (byte) ~(0x80 >>> (x % 8));
                    }
                }
            }
            var palette = new java.awt.image.IndexColorModel(
                    1, 2, new byte[] {0, (byte) 255}, new byte[] {0, (byte) 255}, new byte[] {0, (byte) 255});
            var raster = java.awt.image.Raster.createPackedRaster(
                    new java.awt.image.DataBufferByte(bits, bits.length), side, side, 1, null);
            BufferedImage image = new BufferedImage(palette, raster, false, null);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                ImageIO.write(image, "png", out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        };
    }
}

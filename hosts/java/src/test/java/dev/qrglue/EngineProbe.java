package dev.qrglue;

import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * One sample of tests/bench/engines.py's engine table, in a fresh JVM: makes a generator on one engine
 * (COMPILED, INTERPRETED, EXTISM, NATIVE), timing the load (the module's parse, or the Extism SDK's
 * run-time compile, and the first instance), then the first png of the text, and prints
 * {"load_ms", "first_ms", "sha256"}. The parent reads the peak RSS. Usage: EngineProbe ENGINE TEXT.
 */
public final class EngineProbe {
    private EngineProbe() {}

    public static void main(String[] args) throws Exception {
        Engine engine = Engine.valueOf(args[0]);
        long start = System.nanoTime();
        QrGenerator gen = new QrGenerator(engine, 1);
        // The instance is made on the first call; noop makes it (and loads the module) without a png.
        gen.noop();
        long loaded = System.nanoTime();
        byte[] png = gen.png(args[1]);
        long first = System.nanoTime();
        String digest =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(png));
        System.out.printf(
                java.util.Locale.ROOT,
                "{\"load_ms\": %.3f, \"first_ms\": %.3f, \"sha256\": \"%s\"}%n",
                (loaded - start) / 1e6,
                (first - loaded) / 1e6,
                digest);
    }
}

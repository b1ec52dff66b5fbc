package dev.qrglue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * png on the reference URL on one engine, in a fresh JVM (hosts/java/bench.sh runs one per engine and
 * JIT setting): JVM start to the first PNG, the first call (module load and an instance included), the
 * second, then the median and p10/p90 of timed calls after a warm-up. One JSON line on stdout.
 *
 * <p>Usage: Bench ENGINE WARMUP CALLS
 */
public final class Bench {
    private Bench() {}

    static final String REFERENCE_URL = "https://github.com/pretzelhammer/rust-blog";

    public static void main(String[] args) {
        Engine engine = Engine.valueOf(args[0]);
        int warmup = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        long t0 = System.nanoTime();
        QrGenerator gen = new QrGenerator(engine, 1);
        gen.png(REFERENCE_URL);
        long t1 = System.nanoTime();
        long coldMs = System.currentTimeMillis()
                - ManagementFactory.getRuntimeMXBean().getStartTime();
        gen.png(REFERENCE_URL);
        long t2 = System.nanoTime();
        for (int i = 0; i < warmup; i++) {
            gen.png(REFERENCE_URL);
        }
        // Wall time, and this thread's CPU time: on a machine shared with other work the second is
        // what the call itself cost (the JIT compiles on other threads).
        var threads = ManagementFactory.getThreadMXBean();
        long[] us = new long[calls];
        long[] cpuUs = new long[calls];
        for (int i = 0; i < calls; i++) {
            long c = threads.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            gen.png(REFERENCE_URL);
            us[i] = (System.nanoTime() - s) / 1000;
            cpuUs[i] = (threads.getCurrentThreadCpuTime() - c) / 1000;
        }
        Arrays.sort(us);
        Arrays.sort(cpuUs);
        long noopStart = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            gen.noop();
        }
        double noopUs = (System.nanoTime() - noopStart) / 1000.0 / 1000;
        System.out.printf(
                "{\"engine\": \"%s\", \"jvm_start_to_first_png_ms\": %d, \"first_call_us\": %d, \"second_call_us\": %d,"
                        + " \"warmup_calls\": %d, \"calls\": %d, \"median_us\": %d, \"p10_us\": %d, \"p90_us\": %d,"
                        + " \"cpu_median_us\": %d, \"cpu_p10_us\": %d, \"noop_us\": %.2f}%n",
                engine,
                coldMs,
                (t1 - t0) / 1000,
                (t2 - t1) / 1000,
                warmup,
                calls,
                us[calls / 2],
                us[calls / 10],
                us[calls * 9 / 10],
                cpuUs[calls / 2],
                cpuUs[calls / 10],
                noopUs);
    }
}

package dev.qrglue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The instances behind a QrGenerator: traps retire them, threads never share one, memory stays bounded. */
class GuestTest {
    @ParameterizedTest
    @EnumSource(names = {"INTERPRETED", "COMPILED"})
    void aTrapRetiresTheInstanceAndTheNextCallWorks(Engine engine) {
        QrGenerator gen = new QrGenerator(engine, 4);
        byte[] before = gen.png("after a trap");
        assertEquals(1, gen.instancesMade());
        GuestTrapException trap = assertThrows(GuestTrapException.class, gen::trap);
        assertTrue(trap.getMessage().contains(engine.toString()), trap.getMessage());
        assertEquals(1, gen.instancesRetired());
        // The trapped instance is gone: the next call makes a fresh one and gives the same bytes.
        assertArrayEquals(before, gen.png("after a trap"));
        assertEquals(2, gen.instancesMade());
        // A refusal is the contract's answer, not a failure: the instance stays.
        assertThrows(QrException.class, () -> gen.png(""));
        gen.png("again");
        assertEquals(2, gen.instancesMade());
        assertEquals(1, gen.instancesRetired());
    }

    @Test
    void aPanicInTheNativeCoreNeverCrossesIntoTheJvm() {
        QrGenerator gen = new QrGenerator(Engine.NATIVE, 4);
        byte[] before = gen.png("after a panic");
        // qrglue_panic_probe panics in Rust; catch_unwind turns it into a status, and that into this.
        GuestTrapException panic = assertThrows(GuestTrapException.class, gen::trap);
        assertTrue(panic.getMessage().contains("NATIVE"), panic.getMessage());
        assertTrue(
                panic.getMessage().contains("the qrglue library panicked: qrglue_panic_probe: a deliberate panic"),
                panic.getMessage());
        // The library is stateless: the next calls work and give the same bytes.
        assertArrayEquals(before, gen.png("after a panic"));
        assertThrows(QrException.class, () -> gen.png(""));
        assertEquals(0, gen.instancesMade());
        assertEquals(0, gen.instancesRetired());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void threadsNeverShareAnInstance(Engine engine) throws Exception {
        int threads = 6;
        int calls = engine == Engine.INTERPRETED ? 6 : 40;
        QrGenerator gen = new QrGenerator(engine, threads);
        QrGenerator reference = new QrGenerator(engine, 1);
        List<byte[]> expected = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            expected.add(reference.png("thread " + t + " " + "x".repeat(t * 40)));
        }
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < calls; i++) {
                        // Each thread its own text: a shared instance would mix buffers and records.
                        assertArrayEquals(expected.get(id), gen.png("thread " + id + " " + "x".repeat(id * 40)));
                        assertThrows(QrException.class, () -> gen.png("", Options.DEFAULTS));
                    }
                    return calls;
                }));
            }
            start.countDown();
            for (Future<Integer> f : done) {
                assertEquals(calls, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        // No more instances than threads ever ran at once, none retired.
        assertTrue(gen.instancesMade() <= threads, "instances: " + gen.instancesMade());
        assertEquals(0, gen.instancesRetired());
    }

    @ParameterizedTest
    @EnumSource(names = {"INTERPRETED", "COMPILED"})
    void guestMemoryStaysBoundedOverManyCalls(Engine engine) {
        // qrglue.memoryCalls: 100,000 for the figure; the default keeps CI short.
        int calls = Integer.getInteger("qrglue.memoryCalls", engine == Engine.COMPILED ? 1500 : 150);
        QrGenerator gen = new QrGenerator(engine, 1);
        // Warm up with the largest render there is (on the interpreter, where it takes seconds, a
        // large one), then every output and the refusals; the same render again at the end.
        boolean compiled = engine == Engine.COMPILED;
        Options big =
                Options.builder().minSize(compiled ? 4096 : 1024).quietZone(16).build();
        String longest = "9".repeat(compiled ? 7089 : 2000);
        gen.png(longest, big);
        long pages = gen.memoryPages();
        for (int i = 0; i < calls; i++) {
            String text = "call " + i;
            switch (i % 5) {
                case 0 -> gen.png(text);
                case 1 -> gen.svg(text, Options.DEFAULTS, SvgOptions.NONE.withTitle("t" + i));
                case 2 -> gen.matrix(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), Options.DEFAULTS);
                case 3 -> gen.text(text, Options.DEFAULTS, TextStyle.ASCII);
                default ->
                    assertThrows(
                            QrException.class,
                            () -> gen.png(text, Options.builder().minSize(0).build()));
            }
        }
        gen.png(longest, big);
        assertEquals(pages, gen.memoryPages(), "linear memory grew over " + calls + " calls");
        assertTrue(pages <= 1024, "pages: " + pages);
        assertEquals(1, gen.instancesMade());
    }

    /**
     * Every result the native library returns is freed: the C heap's bytes in use (glibc's mallinfo2,
     * called through FFM) do not grow over many calls whose outputs, leaked, would add up to megabytes.
     */
    @Test
    void nativeResultsAreFreed() throws Throwable {
        QrGenerator gen = new QrGenerator(Engine.NATIVE, 1);
        int calls = Integer.getInteger("qrglue.memoryCalls", 5000);
        String text = "freed ".repeat(100);
        SvgOptions svg = SvgOptions.NONE.withTitle("t".repeat(1000));
        Runnable round = () -> {
            for (int i = 0; i < calls; i++) {
                switch (i % 4) {
                    case 0 -> gen.svg(text + i, Options.DEFAULTS, svg); // ~20 KB each
                    case 1 -> gen.png(text + i, Options.builder().minSize(1000).build());
                    case 2 -> gen.text(text + i, Options.DEFAULTS, TextStyle.ASCII);
                    default ->
                        assertThrows(
                                QrException.class,
                                () -> gen.png(
                                        text,
                                        Options.builder()
                                                .dark("#fff")
                                                .build())); // a refusal's message is a payload too
                }
            }
        };
        round.run(); // warm-up: the JIT's own native allocations settle
        // Up to five measured rounds, each once the JIT is idle: the JVM's compiler threads malloc their
        // arenas (C2 compiling the Chicory-generated methods other tests in this JVM ran), a transient
        // a round can catch (a fresh clone's run, the other lane's JVMs busy beside it, saw +48 MB in
        // each of three rounds); a leak grows the heap in every round, so it fails all five.
        long grown = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 5 && grown >= 4L << 20; attempt++) {
            awaitIdleCompiler();
            long before = MallocProbe.inUse();
            round.run();
            grown = MallocProbe.inUse() - before;
        }
        // A leak of the SVGs alone would be calls / 4 x 20 KB (25 MB at 5,000 calls).
        assertTrue(grown < 4L << 20, "the C heap grew by " + grown + " bytes over " + calls + " calls");
    }

    /**
     * Waits (at most 10 s) until the JIT has compiled nothing for half a second, by the JVM's total
     * compilation time: a compile in flight holds malloc'ed arenas that the heap probe would count.
     */
    private static void awaitIdleCompiler() throws InterruptedException {
        var compiler = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        long last = compiler.getTotalCompilationTime();
        int quiet = 0;
        while (quiet < 5 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            long now = compiler.getTotalCompilationTime();
            quiet = now == last ? quiet + 1 : 0;
            last = now;
        }
    }
}

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The instances behind a QrGenerator: traps retire them, threads never share one, memory stays bounded. */
class GuestTest {
    @ParameterizedTest
    @EnumSource(Engine.class)
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

    @ParameterizedTest
    @EnumSource(Engine.class)
    void threadsNeverShareAnInstance(Engine engine) throws Exception {
        int threads = 6;
        int calls = engine == Engine.COMPILED ? 40 : 6;
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
    @EnumSource(Engine.class)
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
}

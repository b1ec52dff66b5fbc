package dev.qrglue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java host's in-process loop for `just soak` (tests/soak/soak.py): every in-process path (Chicory
 * compiled, Chicory interpreted, Extism's Chicory SDK, the C library through FFM) in one JVM, round-robin
 * over the ten reference texts at a fixed rate for SECONDS; each result is held to its golden digest
 * first, then to the first result. The soak samples this process's RSS from outside. Exits 1 on a
 * mismatch. The interpreter gets one call in 200 (a png there takes ~10 ms idle, 60x the compiled path),
 * so the rate stays the one asked for. Usage: SoakLoop SECONDS CALLS_PER_SECOND.
 */
public final class SoakLoop {
    private SoakLoop() {}

    private record Job(String path, QrGenerator gen, String id, String text) {}

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: SoakLoop SECONDS CALLS_PER_SECOND");
            System.exit(2);
        }
        double seconds = Double.parseDouble(args[0]);
        double rate = Double.parseDouble(args[1]);
        JsonNode expected = Corpus.expected();
        Map<String, QrGenerator> paths = new LinkedHashMap<>();
        for (Engine engine : Engine.values()) {
            paths.put(engine.name().toLowerCase(java.util.Locale.ROOT), new QrGenerator(engine, 1));
        }
        Map<String, byte[]> golden = new LinkedHashMap<>();
        List<Job> jobs = new ArrayList<>();
        for (JsonNode testCase : Corpus.cases()) {
            String id = testCase.get("id").asText();
            if (!id.matches("ref-\\d\\d")) {
                continue;
            }
            String text = testCase.get("text").asText();
            for (Map.Entry<String, QrGenerator> path : paths.entrySet()) {
                byte[] png = path.getValue().png(text);
                if (!Corpus.sha256(png)
                        .equals(expected.get(id).get("png_sha256").asText())) {
                    fail(path.getKey() + ": " + id + " is not its golden PNG");
                }
                golden.put(id, png);
                if (!path.getKey().equals("interpreted")) {
                    jobs.add(new Job(path.getKey(), path.getValue(), id, text));
                }
            }
        }
        List<Job> interpreted = jobs.stream()
                .filter(job -> job.path().equals("compiled"))
                .map(job -> new Job("interpreted", paths.get("interpreted"), job.id(), job.text()))
                .toList();
        long start = System.nanoTime();
        long calls = 0;
        double elapsed;
        while ((elapsed = (System.nanoTime() - start) / 1e9) < seconds) {
            Job job = calls % 200 == 199
                    ? interpreted.get((int) (calls / 200 % interpreted.size()))
                    : jobs.get((int) (calls % jobs.size()));
            if (!Arrays.equals(job.gen().png(job.text()), golden.get(job.id()))) {
                fail(job.path() + ": " + job.id() + " changed after " + calls + " calls");
            }
            calls++;
            // A fixed rate, not full speed: the machine is shared and growth shows per call, not per second.
            double ahead = calls / rate - elapsed;
            if (ahead > 0) {
                try {
                    Thread.sleep((long) (ahead * 1000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        System.out.printf(
                "{\"host\": \"java\", \"paths\": [\"%s\"], \"calls\": %d}%n",
                String.join("\", \"", paths.keySet()), calls);
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(1);
    }
}

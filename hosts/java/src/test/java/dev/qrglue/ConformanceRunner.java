package dev.qrglue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The Java host's conformance runner (tests/conformance/README.md): every case of the corpus on each
 * Java path, printed as one JSON object {"paths": {"java-compiled": {id: outcome}, "java-interpreted":
 * ...}}. Exit 0 whenever every case got an outcome; never reads expected.json. Run by
 * hosts/java/conformance.sh.
 */
public final class ConformanceRunner {
    private ConformanceRunner() {}

    public static void main(String[] args) throws Exception {
        var cases = Corpus.cases();
        // QRGLUE_JAVA_ENGINES (e.g. COMPILED): only these engines (tests/conformance/fuzz.py leaves the
        // interpreter out by default: a 4096-px PNG costs it ~10 s).
        String only = System.getenv("QRGLUE_JAVA_ENGINES");
        List<Engine> engines = Arrays.stream(Engine.values())
                .filter(engine -> only == null || List.of(only.split(",")).contains(engine.name()))
                .toList();
        // One thread per engine: they share nothing (each generator has its own module instance, as
        // each of the server's workers does), so the slow ones (Chicory's interpreter, the Extism
        // SDK's start-up compile, compiled wasm on 4096-px images) overlap on a free core instead of
        // running one after another: this runner was the last to finish in `just fuzz-ci` (200 s).
        Map<String, Object> paths = new LinkedHashMap<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(engines.size())) {
            List<Future<Map<String, Object>>> runs = new ArrayList<>();
            for (Engine engine : engines) {
                runs.add(pool.submit(() -> outcomes(engine, cases)));
            }
            for (int i = 0; i < engines.size(); i++) {
                paths.put(pathName(engines.get(i)), runs.get(i).get());
            }
        }
        System.out.println(Corpus.JSON.writeValueAsString(Map.of("paths", paths)));
    }

    /** Every case's outcome on one engine, in the corpus's order. */
    private static Map<String, Object> outcomes(Engine engine, List<JsonNode> cases) {
        QrGenerator gen = new QrGenerator(engine, 1);
        Map<String, Object> outcomes = new LinkedHashMap<>();
        for (JsonNode testCase : cases) {
            outcomes.put(testCase.get("id").asText(), Corpus.outcome(gen, testCase));
        }
        return outcomes;
    }

    /** The path's name in the conformance run: java-compiled, java-interpreted, java-native, java-extism. */
    static String pathName(Engine engine) {
        return "java-" + engine.name().toLowerCase(java.util.Locale.ROOT);
    }
}

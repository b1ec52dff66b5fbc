package dev.qrglue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Java host's conformance runner (tests/conformance/README.md): every case of the corpus on each
 * Java path, printed as one JSON object {"paths": {"java-compiled": {id: outcome}, "java-interpreted":
 * ...}}. Exit 0 whenever every case got an outcome; never reads expected.json. Run by
 * hosts/java/conformance.sh.
 */
public final class ConformanceRunner {
    private ConformanceRunner() {}

    public static void main(String[] args) throws Exception {
        Map<String, Object> paths = new LinkedHashMap<>();
        var cases = Corpus.cases();
        // QRGLUE_JAVA_ENGINES (e.g. COMPILED): only these engines (tests/conformance/fuzz.py leaves the
        // interpreter out by default: a 4096-px PNG costs it ~10 s).
        String only = System.getenv("QRGLUE_JAVA_ENGINES");
        for (Engine engine : Engine.values()) {
            if (only != null && !java.util.List.of(only.split(",")).contains(engine.name())) {
                continue;
            }
            QrGenerator gen = new QrGenerator(engine, 1);
            Map<String, Object> outcomes = new LinkedHashMap<>();
            for (JsonNode testCase : cases) {
                outcomes.put(testCase.get("id").asText(), Corpus.outcome(gen, testCase));
            }
            paths.put(pathName(engine), outcomes);
        }
        System.out.println(Corpus.JSON.writeValueAsString(Map.of("paths", paths)));
    }

    /** The path's name in the conformance run: java-compiled, java-interpreted, java-native, java-extism. */
    static String pathName(Engine engine) {
        return "java-" + engine.name().toLowerCase(java.util.Locale.ROOT);
    }
}

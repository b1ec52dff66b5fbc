package dev.qrglue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The golden corpus on every Java path: each case's outcome (every output's digest, or the error's
 * kind and message) equals tests/vectors/expected.json's, read at run time (the digests change when
 * the core's PNG writer does; nothing is hard-coded here).
 */
class GoldenTest {
    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyCaseMatchesExpected(Engine engine) {
        JsonNode expected = Corpus.expected();
        QrGenerator gen = new QrGenerator(engine, 1);
        List<String> off = new ArrayList<>();
        int cases = 0;
        for (JsonNode testCase : Corpus.cases()) {
            cases++;
            String id = testCase.get("id").asText();
            Map<String, Object> outcome = Corpus.outcome(gen, testCase);
            JsonNode got = Corpus.JSON.valueToTree(outcome);
            if (!got.equals(expected.get(id))) {
                off.add(id + ": expected " + expected.get(id) + ", got " + got);
            }
        }
        assertEquals(List.of(), off, off.size() + " of " + cases + " cases differ on " + engine);
        assertEquals(expected.size(), cases, "expected.json and cases.json hold the same cases");
    }
}

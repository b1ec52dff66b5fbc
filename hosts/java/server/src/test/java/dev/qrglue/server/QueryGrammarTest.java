package dev.qrglue.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.qrglue.Contract;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The query grammar's shared cases (tests/http/query_cases.json) against this server's parser: the same
 * cases hosts/rust/http-query, hosts/node/server/contract.test.mjs and
 * hosts/python/server/test_http_contract.py run against theirs.
 */
class QueryGrammarTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode read(String path) throws Exception {
        return JSON.readTree(new File(System.getProperty("qrglue.repo"), path));
    }

    @Test
    void theSharedQueryCases() throws Exception {
        JsonNode cases = read("tests/http/query_cases.json");
        List<String> off = new ArrayList<>();
        int count = 0;
        for (JsonNode c : cases.get("queries")) {
            count++;
            String query = c.get("query").asText();
            JsonNode refused = c.get("refused");
            QueryGrammar.Query got;
            try {
                got = QueryGrammar.parse(query);
            } catch (HttpError e) {
                Map<String, String> answer = Map.of("kind", e.kind, "message", e.getMessage());
                if (refused == null || !JSON.convertValue(refused, Map.class).equals(answer)) {
                    off.add(query + ": refused " + answer + ", expected " + (refused == null ? "to pass" : refused));
                }
                continue;
            }
            if (refused != null) {
                off.add(query + ": passed, expected " + refused);
                continue;
            }
            if (c.path("empty").asBoolean(false)) {
                if (!got.empty()) {
                    off.add(query + ": expected empty-text, got " + got.text());
                }
                continue;
            }
            Map<String, Object> want = new LinkedHashMap<>();
            c.get("request").properties().forEach(e -> {
                JsonNode v = e.getValue();
                want.put(e.getKey(), v.isNumber() ? (Object) v.asLong() : v.isBoolean() ? v.asBoolean() : v.asText());
            });
            Map<String, Object> have = new LinkedHashMap<>(got.given());
            have.put("text", got.text());
            if (!have.equals(want)) {
                off.add(query + ": got " + have + ", expected " + want);
            }
            got.options(); // every accepted query becomes the library's Options
        }
        assertTrue(count >= 240, "cases: " + count);
        assertEquals(List.of(), off, off.size() + " of " + count + " cases differ");
    }

    @Test
    void theSharedTargetsAndMethods() throws Exception {
        JsonNode cases = read("tests/http/query_cases.json");
        for (JsonNode t : cases.get("targets")) {
            assertArrayEquals(
                    new String[] {t.get(1).asText(), t.get(2).asText()},
                    QueryGrammar.pathAndQuery(t.get(0).asText()),
                    t.get(0).asText());
        }
        cases.get("methods").properties().forEach(e -> {
            for (JsonNode method : e.getValue()) {
                assertEquals(e.getKey(), QueryGrammar.methodClass(method.asText()), method.asText());
            }
        });
    }

    /** The server's copies of the contract (for the tiers with no qrglue call) equal target/contract.json. */
    @Test
    void theRestatedChecksFollowTheContract() throws Exception {
        JsonNode contract = read("target/contract.json");
        assertEquals(
                QueryGrammar.NOT_UTF8_TEMPLATE,
                contract.get("messages").get("not-utf8").asText());
        assertEquals(QueryGrammar.EC_LEVELS, JSON.convertValue(contract.get("ec_levels"), List.class));
        assertEquals(
                Contract.LONE_SURROGATE_MESSAGE,
                contract.get("messages").get("lone-surrogate").asText());
        // checkRanges in the generator's order and words (as hosts/node/server/contract.test.mjs checks).
        assertNull(refusal(Map.of()));
        assertEquals("min-size must be within 1..=4096, got 0", refusal(Map.of("min-size", 0L, "quiet-zone", 17L)));
        assertEquals("quiet-zone must be within 0..=16, got 17", refusal(Map.of("quiet-zone", 17L, "scale", 0L)));
        assertEquals(
                "scale must be within 1..=20, got 0", refusal(Map.of("scale", 0L, "dark", Contract.DEFAULT_LIGHT)));
        assertEquals(
                "dark and light must be different colours, both are #ffffffff",
                refusal(Map.of("dark", "#ffffffff", "version", 0L)));
        assertEquals("version must be within 1..=40, got 0", refusal(Map.of("version", 0L, "min-version", 0L)));
        assertEquals("version must be within 1..=4, got 5", refusal(Map.of("micro", true, "version", 5L)));
        assertEquals(
                "version and min-version exclude each other: give one",
                refusal(Map.of("version", 1L, "min-version", 1L, "mask", 8L)));
        assertEquals(
                "mask must be within 0..=3, got 8", refusal(Map.of("mask", 8L, "micro", true, "ec-level", "high")));
        assertEquals(Contract.MICRO_EC_LEVEL_MESSAGE, refusal(Map.of("micro", true, "ec-level", "high", "eci", true)));
        assertEquals(Contract.MICRO_ECI_MESSAGE, refusal(Map.of("micro", true, "eci", true)));
        assertNull(refusal(Map.of("micro", true, "version", 4L, "mask", 3L, "ec-level", "quartile", "boost-ec", true)));
    }

    private static String refusal(Map<String, Object> given) {
        try {
            QueryGrammar.checkRanges(given);
            return null;
        } catch (HttpError e) {
            assertNotNull(e.kind);
            return e.getMessage();
        }
    }
}

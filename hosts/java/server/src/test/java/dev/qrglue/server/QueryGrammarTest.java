package dev.qrglue.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.qrglue.EcLevel;
import dev.qrglue.HttpQuery;
import dev.qrglue.Options;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The query grammar's shared cases (tests/http/query_cases.json) through this server's adapter over
 * guest/http-query (hosts/c's C ABI by FFM): the same cases guest/http-query, hosts/c,
 * hosts/go/server/query_test.go, hosts/node/server/query.test.mjs and
 * hosts/python/server/test_http_query.py run. They test the crossing: every field of the answer, both
 * ways of refusing, the alone flag, offsets back into Netty's strings.
 */
class QueryGrammarTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode read(String path) throws Exception {
        return JSON.readTree(new File(System.getProperty("qrglue.repo"), path));
    }

    /** A case's "request" (the options given) over the contract's defaults, as the adapter answers it. */
    private static Options expected(JsonNode contract, JsonNode request) {
        JsonNode defaults = contract.get("defaults");
        Options.Builder b = Options.builder()
                .dark(defaults.get("dark").asText())
                .light(defaults.get("light").asText());
        if (request == null) {
            return b.build();
        }
        request.properties().forEach(e -> {
            JsonNode v = e.getValue();
            switch (e.getKey()) {
                case "text" -> {}
                case "ec-level" -> b.ecLevel(EcLevel.fromWitName(v.asText()));
                case "min-size" -> b.minSize(v.asLong());
                case "quiet-zone" -> b.quietZone(v.asLong());
                case "scale" -> b.scale(v.asLong());
                case "dark" -> b.dark(v.asText());
                case "light" -> b.light(v.asText());
                case "micro" -> b.micro(v.asBoolean());
                case "version" -> b.version(v.asLong());
                case "min-version" -> b.minVersion(v.asLong());
                case "mask" -> b.mask(v.asLong());
                case "boost-ec" -> b.boostEc(v.asBoolean());
                case "eci" -> b.eci(v.asBoolean());
                default -> throw new AssertionError("unknown field in a case's request: " + e.getKey());
            }
        });
        return b.build();
    }

    @Test
    void theSharedQueryCases() throws Exception {
        JsonNode cases = read("tests/http/query_cases.json");
        JsonNode contract = read("target/contract.json");
        List<String> off = new ArrayList<>();
        int count = 0;
        for (JsonNode c : cases.get("queries")) {
            count++;
            String query = c.get("query").asText();
            JsonNode refused = c.get("refused");
            HttpQuery.Request got;
            try {
                got = QueryGrammar.parse(query, false);
            } catch (HttpError e) {
                Map<String, String> answer = Map.of("kind", e.kind, "message", e.getMessage());
                if (refused == null
                        || e.status != 400
                        || !JSON.convertValue(refused, Map.class).equals(answer)) {
                    off.add(query + ": refused " + e.status + " " + answer + ", expected "
                            + (refused == null ? "to pass" : refused));
                }
                continue;
            }
            if (refused != null) {
                off.add(query + ": passed, expected " + refused);
                continue;
            }
            boolean empty = c.path("empty").asBoolean(false);
            String text = empty ? "" : c.get("request").get("text").asText();
            Options want = expected(contract, empty ? null : c.get("request"));
            if (!got.text().equals(text) || !got.options().equals(want)) {
                off.add(query + ": got " + got + ", expected " + text + " " + want);
            }
        }
        assertTrue(count >= 240, "cases: " + count);
        assertEquals(List.of(), off, off.size() + " of " + count + " cases differ");
    }

    /**
     * Alone (the static and zxing tiers), the grammar also refuses what the generator would: an empty
     * text, and options out of the generator's bounds (hosts/go/server/query_test.go's TestAlone).
     */
    @Test
    void aloneTheGrammarRefusesWhatTheGeneratorWould() throws Exception {
        JsonNode messages = read("target/contract.json").get("messages");
        String[][] refusals = {
            {"text=", "empty-text", messages.get("empty-text").asText()},
            {"text=a&scale=21", "invalid-options", "scale must be within 1..=20, got 21"},
            {
                "text=a&micro=true&ec-level=high",
                "invalid-options",
                messages.get("micro-ec-level").asText()
            },
            {
                "text=a&version=2&min-version=3",
                "invalid-options",
                messages.get("version-conflict").asText()
            },
            {
                "text=a&dark=%23fff",
                "invalid-options",
                messages.get("same-colors").asText().replace("{value}", "#ffffffff")
            },
        };
        for (String[] r : refusals) {
            QueryGrammar.parse(r[0], false); // the generator's to refuse, not the grammar's
            HttpError e = assertThrows(HttpError.class, () -> QueryGrammar.parse(r[0], true), r[0]);
            assertEquals(List.of(r[1], r[2], 400), List.of(e.kind, e.getMessage(), e.status), r[0]);
        }
        HttpQuery.Request micro =
                QueryGrammar.parse("text=a&micro=true&version=4&mask=3&ec-level=quartile&boost-ec=true", true);
        assertEquals(
                Options.builder()
                        .dark("#000000ff")
                        .light("#ffffffff")
                        .micro(true)
                        .version(4)
                        .mask(3)
                        .ecLevel(EcLevel.QUARTILE)
                        .boostEc(true)
                        .build(),
                micro.options());
        assertEquals("a", micro.text());
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
        // Netty hands the target over one char per byte: any byte keeps its place.
        assertArrayEquals(
                new String[] {"/q\u00ffr", "text=\u00e9"}, QueryGrammar.pathAndQuery("/q\u00ffr?text=\u00e9#\u00ff"));
        cases.get("methods").properties().forEach(e -> {
            for (JsonNode method : e.getValue()) {
                assertEquals(e.getKey(), QueryGrammar.methodClass(method.asText()), method.asText());
            }
        });
    }

    @Test
    void theFixedMessagesAreTheLibrarys() {
        assertEquals(
                "unknown method (methods are case-sensitive: GET and HEAD are served)",
                QueryGrammar.UNKNOWN_METHOD_MESSAGE);
        assertEquals("an HTTP/1.1 request must have a Host header", QueryGrammar.NO_HOST_MESSAGE);
    }
}

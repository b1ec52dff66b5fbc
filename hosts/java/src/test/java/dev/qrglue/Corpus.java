package dev.qrglue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The conformance corpus as the Java host reads it (tests/conformance/README.md): shared by the
 * tests and the conformance runner, so both judge a path the same way. The folder is
 * $QRGLUE_VECTORS_DIR if set, else tests/vectors of the repository (system property qrglue.repo,
 * which Maven sets, else two folders up from the working directory).
 */
final class Corpus {
    private Corpus() {}

    static final ObjectMapper JSON = new ObjectMapper();

    static Path repo() {
        return Path.of(System.getProperty("qrglue.repo", "../.."))
                .toAbsolutePath()
                .normalize();
    }

    static Path vectors() {
        String configured = System.getenv("QRGLUE_VECTORS_DIR");
        return configured != null ? Path.of(configured) : repo().resolve("tests/vectors");
    }

    static JsonNode read(Path file) {
        try {
            return JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<JsonNode> cases() {
        List<JsonNode> out = new ArrayList<>();
        read(vectors().resolve("cases.json")).get("cases").forEach(out::add);
        return out;
    }

    static JsonNode expected() {
        return read(vectors().resolve("expected.json"));
    }

    /** The case's input: its text (lone surrogates kept: Jackson keeps "\ud800" as it is) or bytes. */
    static Object input(JsonNode testCase) {
        if (testCase.has("data_hex")) {
            return HexFormat.of().parseHex(testCase.get("data_hex").asText());
        }
        if (testCase.has("text_repeat")) {
            JsonNode repeat = testCase.get("text_repeat");
            return repeat.get("unit").asText().repeat(repeat.get("count").asInt());
        }
        return testCase.get("text").asText();
    }

    /** The case's options (WIT names); a missing one keeps the builder's default. */
    static Options options(JsonNode testCase) {
        Options.Builder b = Options.builder();
        JsonNode options = testCase.path("options");
        for (var field : options.properties()) {
            JsonNode v = field.getValue();
            switch (field.getKey()) {
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
                case "view-box-only", "title", "class" -> {} // the SVG call's own: svgOptions
                default -> throw new IllegalArgumentException("unknown option in the corpus: " + field.getKey());
            }
        }
        return b.build();
    }

    static SvgOptions svgOptions(JsonNode testCase) {
        JsonNode options = testCase.path("options");
        return new SvgOptions(
                options.path("view-box-only").asBoolean(false),
                options.has("title") ? options.get("title").asText() : null,
                options.has("class") ? options.get("class").asText() : null);
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One render's result or its error outcome. */
    private interface Render<T> {
        T run();
    }

    private static Object attempt(Render<?> render) {
        try {
            return render.run();
        } catch (QrException e) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("error", e.kind());
            error.put("message", e.getMessage());
            return error;
        } catch (RuntimeException e) {
            return Map.of("error", "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * The README's outcome for one case: the digests of every output (png, svg with the case's SVG
     * options, matrix, text in each style), or the error they all give ("outputs-disagree" if not).
     */
    static Map<String, Object> outcome(QrGenerator gen, JsonNode testCase) {
        Object input = input(testCase);
        Options options = options(testCase);
        SvgOptions svgOptions = svgOptions(testCase);
        boolean bytes = input instanceof byte[];
        Object png = attempt(() -> bytes ? gen.png((byte[]) input, options) : gen.png((String) input, options));
        Object svg = attempt(() ->
                bytes ? gen.svg((byte[]) input, options, svgOptions) : gen.svg((String) input, options, svgOptions));
        Object matrix =
                attempt(() -> bytes ? gen.matrix((byte[]) input, options) : gen.matrix((String) input, options));
        Map<String, Object> texts = new TreeMap<>();
        for (TextStyle style : TextStyle.values()) {
            texts.put(
                    style.witName(),
                    attempt(() -> bytes
                            ? gen.text((byte[]) input, options, style)
                            : gen.text((String) input, options, style)));
        }
        if (png instanceof byte[] p
                && svg instanceof String s
                && matrix instanceof QrMatrix m
                && texts.values().stream().allMatch(t -> t instanceof String)) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("png_sha256", sha256(p));
            out.put("png_bytes", p.length);
            out.put("svg_sha256", sha256(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            byte[] width = {
                (byte) m.width(), (byte) (m.width() >>> 8), (byte) (m.width() >>> 16), (byte) (m.width() >>> 24)
            };
            byte[] modules = m.modules();
            byte[] packed = new byte[4 + modules.length];
            System.arraycopy(width, 0, packed, 0, 4);
            System.arraycopy(modules, 0, packed, 4, modules.length);
            out.put("matrix_sha256", sha256(packed));
            Map<String, Object> textDigests = new TreeMap<>();
            texts.forEach((style, t) ->
                    textDigests.put(style, sha256(((String) t).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
            out.put("text_sha256", textDigests);
            return out;
        }
        List<Object> all = new ArrayList<>(List.of(png, svg, matrix));
        all.addAll(texts.values());
        Object first = all.get(0);
        if (first instanceof Map && all.stream().allMatch(first::equals)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> error = (Map<String, Object>) first;
            return error;
        }
        return Map.of("error", "outputs-disagree");
    }
}

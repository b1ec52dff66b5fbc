package dev.qrglue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract.java and the Options defaults equal target/contract.json (`just contract`). */
class ContractTest {
    private static JsonNode contract() {
        Path file = Corpus.repo().resolve("target/contract.json");
        assertTrue(Files.exists(file), file + " is missing: run `just contract`");
        return Corpus.read(file);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static long[] bounds(JsonNode contract, String name) {
        JsonNode b = contract.get("bounds").get(name);
        return new long[] {b.get(0).asLong(), b.get(1).asLong()};
    }

    @Test
    void kindsLevelsAndStyles() {
        JsonNode c = contract();
        assertEquals(strings(c.get("error_kinds")), Contract.ERROR_KINDS);
        assertEquals(strings(c.get("error_check_order")), Contract.ERROR_CHECK_ORDER);
        assertEquals(
                strings(c.get("ec_levels")),
                Arrays.stream(EcLevel.values()).map(EcLevel::witName).toList());
        assertEquals(
                strings(c.get("text_styles")),
                Arrays.stream(TextStyle.values()).map(TextStyle::witName).toList());
        assertEquals(c.get("max_text_bytes").asInt(), Contract.MAX_TEXT_BYTES);
    }

    @Test
    void defaultsAreTheContracts() {
        JsonNode d = contract().get("defaults");
        Options o = Options.DEFAULTS;
        assertEquals(d.get("ec-level").asText(), o.ecLevel().witName());
        assertEquals(d.get("min-size").asLong(), o.minSize());
        assertEquals(d.get("quiet-zone").asLong(), o.quietZone());
        assertTrue(d.get("scale").isNull() && o.scale().isEmpty());
        assertEquals(d.get("dark").asText(), o.dark());
        assertEquals(d.get("light").asText(), o.light());
        assertEquals(d.get("micro").asBoolean(), o.micro());
        assertTrue(d.get("version").isNull() && o.version().isEmpty());
        assertTrue(d.get("min-version").isNull() && o.minVersion().isEmpty());
        assertTrue(d.get("mask").isNull() && o.mask().isEmpty());
        assertEquals(d.get("boost-ec").asBoolean(), o.boostEc());
        assertEquals(d.get("eci").asBoolean(), o.eci());
        assertEquals(d.get("text-style").asText(), TextStyle.HALF_BLOCKS.witName());
        assertEquals(d.get("view-box-only").asBoolean(), SvgOptions.NONE.viewBoxOnly());
        assertTrue(d.get("title").isNull() && SvgOptions.NONE.title() == null);
        assertTrue(d.get("class").isNull() && SvgOptions.NONE.svgClass() == null);
    }

    @Test
    void bounds() {
        JsonNode c = contract();
        assertEquals(Arrays.toString(bounds(c, "min-size")), Arrays.toString(Contract.MIN_SIZE_BOUNDS));
        assertEquals(Arrays.toString(bounds(c, "quiet-zone")), Arrays.toString(Contract.QUIET_ZONE_BOUNDS));
        assertEquals(Arrays.toString(bounds(c, "scale")), Arrays.toString(Contract.SCALE_BOUNDS));
        assertEquals(Arrays.toString(bounds(c, "version")), Arrays.toString(Contract.VERSION_BOUNDS));
        assertEquals(Arrays.toString(bounds(c, "micro-version")), Arrays.toString(Contract.MICRO_VERSION_BOUNDS));
        assertEquals(Arrays.toString(bounds(c, "mask")), Arrays.toString(Contract.MASK_BOUNDS));
        assertEquals(Arrays.toString(bounds(c, "micro-mask")), Arrays.toString(Contract.MICRO_MASK_BOUNDS));
        assertEquals(bounds(c, "svg-title-bytes")[1], Contract.MAX_SVG_TITLE_BYTES);
        assertEquals(bounds(c, "svg-class-bytes")[1], Contract.MAX_SVG_CLASS_BYTES);
    }

    @Test
    void messages() {
        JsonNode m = contract().get("messages");
        assertEquals(m.get("empty-text").asText(), Contract.EMPTY_TEXT_MESSAGE);
        assertEquals(m.get("data-too-long").asText(), Contract.DATA_TOO_LONG_MESSAGE);
        assertEquals(m.get("lone-surrogate").asText(), Contract.LONE_SURROGATE_MESSAGE);
        assertEquals(m.get("out-of-range").asText(), Contract.OUT_OF_RANGE_TEMPLATE);
        assertEquals(m.get("color").asText(), Contract.COLOR_TEMPLATE);
        assertEquals(m.get("same-colors").asText(), Contract.SAME_COLORS_TEMPLATE);
        assertEquals(m.get("version-conflict").asText(), Contract.VERSION_CONFLICT_MESSAGE);
        assertEquals(m.get("micro-ec-level").asText(), Contract.MICRO_EC_LEVEL_MESSAGE);
        assertEquals(m.get("micro-eci").asText(), Contract.MICRO_ECI_MESSAGE);
        assertEquals(m.get("too-long").asText(), Contract.TOO_LONG_TEMPLATE);
        assertEquals(m.get("option-lone-surrogate").asText(), Contract.OPTION_LONE_SURROGATE_TEMPLATE);
        assertEquals(m.get("not-xml-char").asText(), Contract.NOT_XML_CHAR_TEMPLATE);
        assertEquals(m.get("class").asText(), Contract.CLASS_TEMPLATE);
    }

    @Test
    void rawAbi() {
        JsonNode abi = contract().get("raw_abi");
        assertEquals(abi.get("version").asInt(), Contract.RAW_ABI_VERSION);
        assertEquals(abi.get("record_bytes").asInt(), Contract.RAW_RECORD_BYTES);
        abi.get("status_codes").properties().forEach(e -> {
            if (e.getValue().asInt() != 0) {
                assertEquals(
                        e.getKey(), Contract.RAW_STATUS_KINDS.get(e.getValue().asInt()));
            }
        });
        assertEquals(4, Contract.RAW_STATUS_KINDS.size());
        JsonNode s = abi.get("symbol_flags");
        assertEquals(s.get("micro").asInt(), Contract.RAW_SYMBOL_MICRO);
        assertEquals(s.get("boost-ec").asInt(), Contract.RAW_SYMBOL_BOOST_EC);
        assertEquals(s.get("has-version").asInt(), Contract.RAW_SYMBOL_HAS_VERSION);
        assertEquals(s.get("has-min-version").asInt(), Contract.RAW_SYMBOL_HAS_MIN_VERSION);
        assertEquals(s.get("has-mask").asInt(), Contract.RAW_SYMBOL_HAS_MASK);
        assertEquals(s.get("eci").asInt(), Contract.RAW_SYMBOL_ECI);
        JsonNode v = abi.get("svg_flags");
        assertEquals(v.get("view-box-only").asInt(), Contract.RAW_SVG_VIEW_BOX_ONLY);
        assertEquals(v.get("has-title").asInt(), Contract.RAW_SVG_HAS_TITLE);
        assertEquals(v.get("has-class").asInt(), Contract.RAW_SVG_HAS_CLASS);
    }
}

// generated; do not edit.
// tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.

package dev.qrglue;

import java.util.List;
import java.util.Map;

/**
 * The contract's constants (guest/core/src/contract.rs): defaults, bounds, kinds, messages, the raw
 * ABI's codes and the CLI's option flags, generated from the one option table so the jar stands
 * alone and nothing hand-written restates them.
 */
public final class Contract {
    private Contract() {}

    /** WIT {@code ec-level} cases; the index is the raw ABI's encoding. */
    public static final List<String> EC_LEVELS = List.of("low", "medium", "quartile", "high");
    /** WIT {@code text-style} cases; the index is the raw ABI's encoding. */
    public static final List<String> TEXT_STYLES = List.of("half-blocks", "half-blocks-inverted", "ascii");
    /** WIT {@code qr-error} cases, in declaration order. */
    public static final List<String> ERROR_KINDS = List.of("empty-text", "invalid-text", "data-too-long", "invalid-options");
    /** The order in which the checks run: with two mistakes at once, the first is reported. */
    public static final List<String> ERROR_CHECK_ORDER = List.of("invalid-text", "empty-text", "data-too-long", "invalid-options");

    // Each option's default (WIT has none); an absent one is none.
    /** Default of {@code ec-level}: Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable. */
    public static final String DEFAULT_EC_LEVEL = "low";
    /** Default of {@code min-size}: Minimum image width and height in pixels. */
    public static final int DEFAULT_MIN_SIZE = 200;
    /** Default of {@code quiet-zone}: Light margin around the code, in modules (the standard asks for 4). */
    public static final int DEFAULT_QUIET_ZONE = 4;
    /** Default of {@code dark}: The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa. */
    public static final String DEFAULT_DARK = "#000000ff";
    /** Default of {@code light}: The light modules' and the quiet zone's colour, as dark; must differ from dark. */
    public static final String DEFAULT_LIGHT = "#ffffffff";
    /** Default of {@code micro}: A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI. */
    public static final boolean DEFAULT_MICRO = false;
    /** Default of {@code boost-ec}: Raise the EC level as far as the chosen version still holds the text. */
    public static final boolean DEFAULT_BOOST_EC = false;
    /** Default of {@code eci}: Precede the data with ECI designator 26 (UTF-8); not with micro. */
    public static final boolean DEFAULT_ECI = false;
    /** Default of {@code view-box-only}: SVG only: leave out width and height, so the document scales to its box. */
    public static final boolean DEFAULT_VIEW_BOX_ONLY = false;
    /** Default of {@code text-style}: text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark module. */
    public static final String DEFAULT_TEXT_STYLE = "half-blocks";

    // Inclusive bounds (the guest checks them); the SVG strings' in UTF-8 bytes.
    /** {@code min-size}'s bounds: {min, max}, inclusive. */
    public static final long[] MIN_SIZE_BOUNDS = {1, 4096};
    /** {@code quiet-zone}'s bounds: {min, max}, inclusive. */
    public static final long[] QUIET_ZONE_BOUNDS = {0, 16};
    /** {@code scale}'s bounds: {min, max}, inclusive. */
    public static final long[] SCALE_BOUNDS = {1, 20};
    /** {@code version}'s bounds: {min, max}, inclusive. */
    public static final long[] VERSION_BOUNDS = {1, 40};
    /** {@code version}'s bounds with {@code micro}: {min, max}, inclusive. */
    public static final long[] MICRO_VERSION_BOUNDS = {1, 4};
    /** {@code min-version}'s bounds: {min, max}, inclusive. */
    public static final long[] MIN_VERSION_BOUNDS = {1, 40};
    /** {@code min-version}'s bounds with {@code micro}: {min, max}, inclusive. */
    public static final long[] MICRO_MIN_VERSION_BOUNDS = {1, 4};
    /** {@code mask}'s bounds: {min, max}, inclusive. */
    public static final long[] MASK_BOUNDS = {0, 7};
    /** {@code mask}'s bounds with {@code micro}: {min, max}, inclusive. */
    public static final long[] MICRO_MASK_BOUNDS = {0, 3};
    /** The most UTF-8 bytes the SVG's {@code title} may hold. */
    public static final int MAX_SVG_TITLE_BYTES = 1024;
    /** The most UTF-8 bytes the SVG's {@code class} may hold. */
    public static final int MAX_SVG_CLASS_BYTES = 256;

    /** No QR code holds more bytes: longer inputs are data-too-long before entering the guest. */
    public static final int MAX_TEXT_BYTES = 7089;
    /** The most renders one pngRepeat probe call may ask for. */
    public static final int MAX_PNG_REPEAT_TIMES = 50;

    // The contract's messages; a template's {name}s are filled by fill().
    /** The contract's {@code class} message template (its {name}s filled by the case). */
    public static final String CLASS_TEMPLATE = "class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got {value}";
    /** The contract's {@code color} message template (its {name}s filled by the case). */
    public static final String COLOR_TEMPLATE = "{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}";
    /** The contract's {@code data-too-long} message. */
    public static final String DATA_TOO_LONG_MESSAGE = "text does not fit in any QR code: it is over 7089 bytes, the most one holds";
    /** The contract's {@code ec-level-index} message template (its {name}s filled by the case). */
    public static final String EC_LEVEL_INDEX_TEMPLATE = "ec-level must be 0..=3 (low, medium, quartile, high), got {value}";
    /** The contract's {@code ec-level-name} message template (its {name}s filled by the case). */
    public static final String EC_LEVEL_NAME_TEMPLATE = "ec-level must be one of low, medium, quartile, high, got {value}";
    /** The contract's {@code empty-text} message. */
    public static final String EMPTY_TEXT_MESSAGE = "text is empty";
    /** The contract's {@code lone-surrogate} message. */
    public static final String LONE_SURROGATE_MESSAGE = "text contains a lone surrogate (not encodable as UTF-8)";
    /** The contract's {@code micro-ec-level} message. */
    public static final String MICRO_EC_LEVEL_MESSAGE = "ec-level high is not available in Micro QR (M4 goes up to quartile)";
    /** The contract's {@code micro-eci} message. */
    public static final String MICRO_ECI_MESSAGE = "eci is not available in Micro QR (it has no ECI mode)";
    /** The contract's {@code not-integer} message template (its {name}s filled by the case). */
    public static final String NOT_INTEGER_TEMPLATE = "{option} must be an integer, got {value}";
    /** The contract's {@code not-utf8} message template (its {name}s filled by the case). */
    public static final String NOT_UTF8_TEMPLATE = "text is not valid UTF-8 from byte {index}";
    /** The contract's {@code not-xml-char} message template (its {name}s filled by the case). */
    public static final String NOT_XML_CHAR_TEMPLATE = "{option} holds {char} at byte {index}, which XML 1.0 cannot carry";
    /** The contract's {@code option-lone-surrogate} message template (its {name}s filled by the case). */
    public static final String OPTION_LONE_SURROGATE_TEMPLATE = "{option} contains a lone surrogate (not encodable as UTF-8)";
    /** The contract's {@code option-not-text} message template (its {name}s filled by the case). */
    public static final String OPTION_NOT_TEXT_TEMPLATE = "{option} is not valid UTF-8 from byte {index}";
    /** The contract's {@code out-of-range} message template (its {name}s filled by the case). */
    public static final String OUT_OF_RANGE_TEMPLATE = "{option} must be within {min}..={max}, got {value}";
    /** The contract's {@code same-colors} message template (its {name}s filled by the case). */
    public static final String SAME_COLORS_TEMPLATE = "dark and light must be different colours, both are {value}";
    /** The contract's {@code text-style-index} message template (its {name}s filled by the case). */
    public static final String TEXT_STYLE_INDEX_TEMPLATE = "text-style must be 0..=2 (half-blocks, half-blocks-inverted, ascii), got {value}";
    /** The contract's {@code text-style-name} message template (its {name}s filled by the case). */
    public static final String TEXT_STYLE_NAME_TEMPLATE = "text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}";
    /** The contract's {@code too-long} message template (its {name}s filled by the case). */
    public static final String TOO_LONG_TEMPLATE = "{option} must be at most {max} UTF-8 bytes, got {value}";
    /** The contract's {@code version-conflict} message. */
    public static final String VERSION_CONFLICT_MESSAGE = "version and min-version exclude each other: give one";

    /** The raw ABI's version (guest/raw/ABI.md) that the bundled guest implements. */
    public static final int RAW_ABI_VERSION = 7;
    /** Bytes in a raw ABI result record: status, payload pointer, payload length (u32 each). */
    public static final int RAW_RECORD_BYTES = 12;
    /** Status code to kind; 0 is ok. */
    public static final Map<Integer, String> RAW_STATUS_KINDS = Map.of(1, "empty-text", 2, "invalid-text", 3, "data-too-long", 4, "invalid-options");

    /** The raw ABI's {@code symbol_flags} bit {@code boost-ec} (guest/raw/ABI.md). */
    public static final int RAW_SYMBOL_BOOST_EC = 2;
    /** The raw ABI's {@code symbol_flags} bit {@code eci} (guest/raw/ABI.md). */
    public static final int RAW_SYMBOL_ECI = 32;
    /** The raw ABI's {@code symbol_flags} bit {@code has-mask} (guest/raw/ABI.md). */
    public static final int RAW_SYMBOL_HAS_MASK = 16;
    /** The raw ABI's {@code symbol_flags} bit {@code has-min-version} (guest/raw/ABI.md). */
    public static final int RAW_SYMBOL_HAS_MIN_VERSION = 8;
    /** The raw ABI's {@code symbol_flags} bit {@code has-version} (guest/raw/ABI.md). */
    public static final int RAW_SYMBOL_HAS_VERSION = 4;
    /** The raw ABI's {@code symbol_flags} bit {@code micro} (guest/raw/ABI.md). */
    public static final int RAW_SYMBOL_MICRO = 1;
    /** The raw ABI's {@code svg_flags} bit {@code has-class} (guest/raw/ABI.md). */
    public static final int RAW_SVG_HAS_CLASS = 4;
    /** The raw ABI's {@code svg_flags} bit {@code has-title} (guest/raw/ABI.md). */
    public static final int RAW_SVG_HAS_TITLE = 2;
    /** The raw ABI's {@code svg_flags} bit {@code view-box-only} (guest/raw/ABI.md). */
    public static final int RAW_SVG_VIEW_BOX_ONLY = 1;

    /**
     * One symbol option's bit of the raw ABI's symbol_flags: its Java name, the bit, and the word of
     * the raw ABI's options that holds its number when the bit is set (-1: the bit is the option).
     *
     * @param name the option's Java name
     * @param bit its bit of symbol_flags
     * @param word the index of the raw ABI's option word that holds its number (-1: none)
     */
    public record SymbolFlag(String name, int bit, int word) {}

    /** Every symbol option's bit, in the table's (check) order. */
    public static final List<SymbolFlag> SYMBOL_FLAGS = List.of(
            new SymbolFlag("micro", 1, -1),
            new SymbolFlag("version", 4, 8),
            new SymbolFlag("minVersion", 8, 9),
            new SymbolFlag("mask", 16, 10),
            new SymbolFlag("boostEc", 2, -1),
            new SymbolFlag("eci", 32, -1));

    /**
     * One CLI option flag: the flag without its dashes, the option's name, its type (the table's
     * kinds), the value's name (null: a flag that takes none), the one subcommand that takes it
     * (null: every one) and the help line, with the default and possible values clap appends.
     *
     * @param flag the flag without its dashes
     * @param name the option's Java name
     * @param type the table's kind of the option
     * @param value the value's name (null: the flag takes none)
     * @param command the one subcommand that takes it (null: every one)
     * @param help the help line
     */
    public record CliFlag(String flag, String name, String type, String value, String command, String help) {}

    /** The CLI's option flags, one per option of the contract's table, in its order. */
    public static final List<CliFlag> CLI_FLAGS = List.of(
            new CliFlag(
                    "ec-level", "ecLevel", "ec-level", "EC_LEVEL", null,
                    "Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable [default: low] [possible values: low, medium, quartile, high]"),
            new CliFlag(
                    "min-size", "minSize", "u32", "MIN_SIZE", null,
                    "Minimum image width and height in pixels (1..=4096) [default: 200]"),
            new CliFlag(
                    "quiet-zone", "quietZone", "u32", "QUIET_ZONE", null,
                    "Light margin around the code, in modules (the standard asks for 4) (0..=16) [default: 4]"),
            new CliFlag(
                    "scale", "scale", "option-u32", "SCALE", null,
                    "Pixels per module; when given it sizes the image (min-size is checked but unused) (1..=20)"),
            new CliFlag(
                    "dark", "dark", "rgba", "HEX", null,
                    "The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa [default: #000000ff]"),
            new CliFlag(
                    "light", "light", "rgba", "HEX", null,
                    "The light modules' and the quiet zone's colour, as dark; must differ from dark [default: #ffffffff]"),
            new CliFlag(
                    "micro", "micro", "bool", null, null,
                    "A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI"),
            new CliFlag(
                    "symbol-version", "version", "option-u32", "N", null,
                    "Exactly this version; a text it cannot hold is data-too-long. Not with min-version (1..=40, 1..=4 with micro)"),
            new CliFlag(
                    "min-version", "minVersion", "option-u32", "N", null,
                    "At least this version: the smallest from it up that holds the text (1..=40, 1..=4 with micro)"),
            new CliFlag(
                    "mask", "mask", "option-u32", "N", null,
                    "This mask pattern instead of the one with the lowest penalty score (0..=7, 0..=3 with micro)"),
            new CliFlag(
                    "boost-ec", "boostEc", "bool", null, null,
                    "Raise the EC level as far as the chosen version still holds the text"),
            new CliFlag(
                    "eci", "eci", "bool", null, null,
                    "Precede the data with ECI designator 26 (UTF-8); not with micro"),
            new CliFlag(
                    "view-box-only", "viewBoxOnly", "bool", null, "svg",
                    "SVG only: leave out width and height, so the document scales to its box"),
            new CliFlag(
                    "title", "title", "option-string", "TEXT", "svg",
                    "SVG only: a <title> (the code's accessible name), in UTF-8 bytes of text XML 1.0 can carry (at most 1024)"),
            new CliFlag(
                    "class", "class", "option-string", "NAMES", "svg",
                    "SVG only: the <svg> element's class, CSS class names separated by single spaces, in bytes (at most 256)"),
            new CliFlag(
                    "style", "style", "text-style", "STYLE", "text",
                    "text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark module [default: half-blocks] [possible values: half-blocks, half-blocks-inverted, ascii]"));

    /** A template with its {name} placeholders filled, in the given (name, value) pairs. */
    static String fill(String template, Object... pairs) {
        String out = template;
        for (int i = 0; i < pairs.length; i += 2) {
            out = out.replace("{" + pairs[i] + "}", String.valueOf(pairs[i + 1]));
        }
        return out;
    }
}

package dev.qrglue;

import java.util.List;
import java.util.Map;

/**
 * The contract's constants (guest/core/src/contract.rs): defaults, bounds, kinds, messages and the raw
 * ABI's codes, restated so the jar stands alone. {@code ContractTest} asserts each equals
 * target/contract.json, which the build writes from contract.rs, so they cannot drift.
 */
public final class Contract {
    private Contract() {}

    /** WIT {@code qr-error} cases, in declaration order. */
    public static final List<String> ERROR_KINDS =
            List.of("empty-text", "invalid-text", "data-too-long", "invalid-options");
    /** The order in which the checks run: with two mistakes at once, the first is reported. */
    public static final List<String> ERROR_CHECK_ORDER =
            List.of("invalid-text", "empty-text", "data-too-long", "invalid-options");

    public static final int DEFAULT_MIN_SIZE = 200;
    public static final int DEFAULT_QUIET_ZONE = 4;
    public static final String DEFAULT_DARK = "#000000ff";
    public static final String DEFAULT_LIGHT = "#ffffffff";

    public static final long[] MIN_SIZE_BOUNDS = {1, 4096};
    public static final long[] QUIET_ZONE_BOUNDS = {0, 16};
    public static final long[] SCALE_BOUNDS = {1, 20};
    public static final long[] VERSION_BOUNDS = {1, 40};
    public static final long[] MICRO_VERSION_BOUNDS = {1, 4};
    public static final long[] MASK_BOUNDS = {0, 7};
    public static final long[] MICRO_MASK_BOUNDS = {0, 3};
    public static final int MAX_SVG_TITLE_BYTES = 1024;
    public static final int MAX_SVG_CLASS_BYTES = 256;

    /** No QR code holds more bytes: longer inputs are data-too-long before entering the guest. */
    public static final int MAX_TEXT_BYTES = 7089;

    public static final String EMPTY_TEXT_MESSAGE = "text is empty";
    public static final String DATA_TOO_LONG_MESSAGE = "text does not fit in a QR code at this error-correction level";
    public static final String LONE_SURROGATE_MESSAGE = "text contains a lone surrogate (not encodable as UTF-8)";
    public static final String OUT_OF_RANGE_TEMPLATE = "{option} must be within {min}..={max}, got {value}";
    public static final String COLOR_TEMPLATE =
            "{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}";
    public static final String SAME_COLORS_TEMPLATE = "dark and light must be different colours, both are {value}";
    public static final String VERSION_CONFLICT_MESSAGE = "version and min-version exclude each other: give one";
    public static final String MICRO_EC_LEVEL_MESSAGE =
            "ec-level high is not available in Micro QR (M4 goes up to quartile)";
    public static final String MICRO_ECI_MESSAGE = "eci is not available in Micro QR (it has no ECI mode)";
    public static final String TOO_LONG_TEMPLATE = "{option} must be at most {max} UTF-8 bytes, got {value}";
    public static final String NOT_XML_CHAR_TEMPLATE =
            "{option} holds {char} at byte {index}, which XML 1.0 cannot carry";
    public static final String CLASS_TEMPLATE = "class must be CSS class names (ASCII letters, digits, - and _) "
            + "separated by single spaces, at most 256 bytes, got {value}";
    public static final String OPTION_LONE_SURROGATE_TEMPLATE =
            "{option} contains a lone surrogate (not encodable as UTF-8)";

    /** guest/raw/ABI.md. */
    public static final int RAW_ABI_VERSION = 7;

    public static final int RAW_RECORD_BYTES = 12;
    /** Status code to kind; 0 is ok. */
    public static final Map<Integer, String> RAW_STATUS_KINDS =
            Map.of(1, "empty-text", 2, "invalid-text", 3, "data-too-long", 4, "invalid-options");

    public static final int RAW_SYMBOL_MICRO = 1;
    public static final int RAW_SYMBOL_BOOST_EC = 2;
    public static final int RAW_SYMBOL_HAS_VERSION = 4;
    public static final int RAW_SYMBOL_HAS_MIN_VERSION = 8;
    public static final int RAW_SYMBOL_HAS_MASK = 16;
    public static final int RAW_SYMBOL_ECI = 32;
    public static final int RAW_SVG_VIEW_BOX_ONLY = 1;
    public static final int RAW_SVG_HAS_TITLE = 2;
    public static final int RAW_SVG_HAS_CLASS = 4;

    /** A template with its {name} placeholders filled, in the given (name, value) pairs. */
    static String fill(String template, Object... pairs) {
        String out = template;
        for (int i = 0; i < pairs.length; i += 2) {
            out = out.replace("{" + pairs[i] + "}", String.valueOf(pairs[i + 1]));
        }
        return out;
    }
}

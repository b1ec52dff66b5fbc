package dev.qrglue;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * What the host checks before a guest is called: only what the WIT cannot carry (docs/contract.md,
 * "Which errors a host raises"). A text with a lone surrogate (UTF-8 cannot carry it, and
 * String.getBytes would silently replace it), a text over 7089 UTF-8 bytes (never copied), then each
 * option in WIT order: a number outside u32 (Java's long holds more), a colour that is no CSS hex
 * colour, an SVG title or class with a lone surrogate or over its byte bound. Every other rule (an
 * empty text, the contract's bounds, equal colours, the symbol's combinations, what an SVG string may
 * hold) is the guest's alone, in its order, with its messages: the host does not restate it.
 */
final class Checks {
    private Checks() {}

    private static final Pattern HEX_COLOR = Pattern.compile("#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})");
    private static final long U32_MAX = 0xffff_ffffL;

    /** The text's UTF-8, or the host's refusal (a lone surrogate; over 7089 bytes). */
    static byte[] utf8(String text) {
        Objects.requireNonNull(text, "text");
        long length = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new QrException("invalid-text", Contract.LONE_SURROGATE_MESSAGE);
            } else {
                length += 3;
            }
        }
        if (length > Contract.MAX_TEXT_BYTES) {
            throw QrException.dataTooLong();
        }
        return text.getBytes(StandardCharsets.UTF_8); // no surrogate is lone: exact
    }

    /** A payload's length checked before it is copied anywhere. */
    static void payload(byte[] data) {
        Objects.requireNonNull(data, "data");
        if (data.length > Contract.MAX_TEXT_BYTES) {
            throw QrException.dataTooLong();
        }
    }

    /**
     * The options as the raw ABI passes them after the text (ec_level, min_size, quiet_zone, has_scale,
     * scale, dark, light, symbol_flags, version, min_version, mask): each number within u32, each colour
     * a CSS hex colour, in WIT order. Their bounds and combinations are the guest's to check.
     */
    static long[] lower(Options o) {
        Objects.requireNonNull(o, "options");
        boolean micro = o.micro();
        long minSize = u32("min-size", o.minSize(), Contract.MIN_SIZE_BOUNDS);
        long quietZone = u32("quiet-zone", o.quietZone(), Contract.QUIET_ZONE_BOUNDS);
        long scale = u32("scale", o.scale(), Contract.SCALE_BOUNDS);
        long dark = color("dark", o.dark());
        long light = color("light", o.light());
        long version = u32("version", o.version(), micro ? Contract.MICRO_VERSION_BOUNDS : Contract.VERSION_BOUNDS);
        long minVersion =
                u32("min-version", o.minVersion(), micro ? Contract.MICRO_VERSION_BOUNDS : Contract.VERSION_BOUNDS);
        long mask = u32("mask", o.mask(), micro ? Contract.MICRO_MASK_BOUNDS : Contract.MASK_BOUNDS);
        return new long[] {
            o.ecLevel().ordinal(),
            minSize,
            quietZone,
            o.scale().isPresent() ? 1 : 0,
            scale,
            dark,
            light,
            o.symbolFlags(),
            version,
            minVersion,
            mask
        };
    }

    /**
     * The SVG options' flags, and their strings' UTF-8 (title, then class) for the one buffer the ABI
     * takes; run after {@link #lower}. A string with a lone surrogate or past its bound never enters the
     * guest; what it may hold is the guest's to check.
     */
    static SvgArgs svg(SvgOptions svg) {
        Objects.requireNonNull(svg, "svg");
        String title = svg.title();
        String svgClass = svg.svgClass();
        byte[] titleBytes = svgString("title", title, Contract.MAX_SVG_TITLE_BYTES);
        byte[] classBytes = svgString("class", svgClass, Contract.MAX_SVG_CLASS_BYTES);
        int flags = (svg.viewBoxOnly() ? Contract.RAW_SVG_VIEW_BOX_ONLY : 0)
                | (title != null ? Contract.RAW_SVG_HAS_TITLE : 0)
                | (svgClass != null ? Contract.RAW_SVG_HAS_CLASS : 0);
        byte[] strings = new byte[titleBytes.length + classBytes.length];
        System.arraycopy(titleBytes, 0, strings, 0, titleBytes.length);
        System.arraycopy(classBytes, 0, strings, titleBytes.length, classBytes.length);
        return new SvgArgs(flags, titleBytes.length, strings);
    }

    /** qr_svg's last arguments: svg_flags, title_len and the strings' buffer. */
    record SvgArgs(int flags, int titleLength, byte[] strings) {}

    /** An SVG string's UTF-8 (empty when absent), refused with a lone surrogate or over {@code max} bytes. */
    private static byte[] svgString(String option, String value, int max) {
        if (value == null) {
            return new byte[0];
        }
        if (hasLoneSurrogate(value)) {
            throw invalidOptions(Contract.fill(Contract.OPTION_LONE_SURROGATE_TEMPLATE, "option", option));
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > max) {
            throw invalidOptions(
                    Contract.fill(Contract.TOO_LONG_TEMPLATE, "option", option, "max", max, "value", bytes.length));
        }
        return bytes;
    }

    static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** A CSS hex colour as 0xRRGGBBAA, read as the core's Rgba::from_hex reads it; -1 if it is none. */
    static long parseColor(String value) {
        if (!HEX_COLOR.matcher(value).matches()) {
            return -1;
        }
        String digits = value.substring(1);
        if (digits.length() <= 4) {
            StringBuilder doubled = new StringBuilder();
            for (char c : digits.toCharArray()) {
                doubled.append(c).append(c);
            }
            digits = doubled.toString();
        }
        if (digits.length() == 6) {
            digits += "ff";
        }
        return Long.parseLong(digits, 16);
    }

    private static long color(String option, String value) {
        long rgba = parseColor(Objects.requireNonNull(value, option));
        if (rgba < 0) {
            throw invalidOptions(
                    Contract.fill(Contract.COLOR_TEMPLATE, "option", option, "value", RustDebug.quote(value)));
        }
        return rgba;
    }

    private static long u32(String option, OptionalLong value, long[] bounds) {
        return value.isPresent() ? u32(option, value.getAsLong(), bounds) : 0;
    }

    /**
     * A number the u32 cannot carry, refused with the contract's bounds: the guest words any integer out
     * of range so, and every host says the same for one outside u32.
     */
    private static long u32(String option, long value, long[] bounds) {
        if (value < 0 || value > U32_MAX) {
            throw invalidOptions(Contract.fill(
                    Contract.OUT_OF_RANGE_TEMPLATE,
                    "option",
                    option,
                    "min",
                    bounds[0],
                    "max",
                    bounds[1],
                    "value",
                    value));
        }
        return value;
    }

    private static QrException invalidOptions(String message) {
        return new QrException("invalid-options", message);
    }
}

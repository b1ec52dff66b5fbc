package dev.qrglue;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * What runs before any byte enters a guest, in the contract's order: invalid-text (a lone surrogate:
 * UTF-8 cannot carry it, and String.getBytes would silently replace it), empty-text, data-too-long by
 * length (so a 50 MB string is refused without being copied), invalid-options. Every option is checked
 * here as the guest checks it, with its message: a Java value the ABI's u32 cannot carry (a negative
 * size, a colour string) must be refused here, and it must be refused in its place in WIT order, so the
 * host runs the whole order. Equal colours alone are left to the guest when nothing else is wrong.
 */
final class Checks {
    private Checks() {}

    private static final Pattern HEX_COLOR = Pattern.compile("#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})");
    private static final Pattern NOT_XML_CHAR = Pattern.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff]");

    /** The text's UTF-8, or the contract's refusal (a lone surrogate; over 7089 bytes). */
    static byte[] utf8(String text) {
        java.util.Objects.requireNonNull(text, "text");
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
        java.util.Objects.requireNonNull(data, "data");
        if (data.length > Contract.MAX_TEXT_BYTES) {
            throw QrException.dataTooLong();
        }
    }

    /**
     * The options as the raw ABI passes them after the text (ec_level, min_size, quiet_zone, has_scale,
     * scale, dark, light, symbol_flags, version, min_version, mask), after the contract's checks.
     */
    static long[] lower(Options o, boolean empty) {
        java.util.Objects.requireNonNull(o, "options");
        long minSize = inBounds("min-size", o.minSize(), Contract.MIN_SIZE_BOUNDS, empty);
        long quietZone = inBounds("quiet-zone", o.quietZone(), Contract.QUIET_ZONE_BOUNDS, empty);
        long scale = o.scale().isPresent() ? inBounds("scale", o.scale().getAsLong(), Contract.SCALE_BOUNDS, empty) : 0;
        long dark = color("dark", o.dark(), empty);
        long light = color("light", o.light(), empty);
        long flags = 0;
        if (!o.automaticSymbol()) {
            flags = symbolFlags(o, empty, dark, light);
        }
        return new long[] {
            o.ecLevel().ordinal(),
            minSize,
            quietZone,
            o.scale().isPresent() ? 1 : 0,
            scale,
            dark,
            light,
            flags,
            o.version().orElse(0),
            o.minVersion().orElse(0),
            o.mask().orElse(0)
        };
    }

    /** The guest's Symbol::validate, in its order, after equal colours. */
    private static long symbolFlags(Options o, boolean empty, long dark, long light) {
        boolean micro = o.micro();
        long[] versionBounds = micro ? Contract.MICRO_VERSION_BOUNDS : Contract.VERSION_BOUNDS;
        long[] maskBounds = micro ? Contract.MICRO_MASK_BOUNDS : Contract.MASK_BOUNDS;
        String message = null;
        if (outside(o.version(), versionBounds)) {
            message = outOfRange("version", o.version().getAsLong(), versionBounds);
        } else if (outside(o.minVersion(), versionBounds)) {
            message = outOfRange("min-version", o.minVersion().getAsLong(), versionBounds);
        } else if (o.version().isPresent() && o.minVersion().isPresent()) {
            message = Contract.VERSION_CONFLICT_MESSAGE;
        } else if (outside(o.mask(), maskBounds)) {
            message = outOfRange("mask", o.mask().getAsLong(), maskBounds);
        } else if (micro && o.ecLevel() == EcLevel.HIGH) {
            message = Contract.MICRO_EC_LEVEL_MESSAGE;
        } else if (micro && o.eci()) {
            message = Contract.MICRO_ECI_MESSAGE;
        }
        if (message != null) {
            // The guest reports equal colours before any symbol option.
            if (!empty && dark == light) {
                throw sameColors(dark);
            }
            throw refuse(empty, message);
        }
        return (micro ? Contract.RAW_SYMBOL_MICRO : 0)
                | (o.boostEc() ? Contract.RAW_SYMBOL_BOOST_EC : 0)
                | (o.version().isPresent() ? Contract.RAW_SYMBOL_HAS_VERSION : 0)
                | (o.minVersion().isPresent() ? Contract.RAW_SYMBOL_HAS_MIN_VERSION : 0)
                | (o.mask().isPresent() ? Contract.RAW_SYMBOL_HAS_MASK : 0)
                | (o.eci() ? Contract.RAW_SYMBOL_ECI : 0);
    }

    /**
     * The SVG options' flags, and their strings' UTF-8 (title, then class) for the one buffer the ABI
     * takes; run after {@link #lower}. A string past its bound never enters the guest: the guest's
     * answer is found here (its SvgOptions::validate, message for message).
     */
    static SvgArgs svg(SvgOptions svg, boolean empty, long dark, long light) {
        String title = svg.title();
        String svgClass = svg.svgClass();
        String message = null;
        byte[] titleBytes = new byte[0];
        byte[] classBytes = new byte[0];
        if (title != null) {
            if (hasLoneSurrogate(title)) {
                message = Contract.fill(Contract.OPTION_LONE_SURROGATE_TEMPLATE, "option", "title");
            } else {
                titleBytes = title.getBytes(StandardCharsets.UTF_8);
            }
        }
        if (message == null && svgClass != null) {
            if (hasLoneSurrogate(svgClass)) {
                message = Contract.fill(Contract.OPTION_LONE_SURROGATE_TEMPLATE, "option", "class");
            } else {
                classBytes = svgClass.getBytes(StandardCharsets.UTF_8);
            }
        }
        if (message == null
                && (titleBytes.length > Contract.MAX_SVG_TITLE_BYTES
                        || classBytes.length > Contract.MAX_SVG_CLASS_BYTES)) {
            message = svgRefusal(title, titleBytes, svgClass);
        }
        if (message != null) {
            // The guest is never called: what it would say first is said here.
            if (!empty && dark == light) {
                throw sameColors(dark);
            }
            throw refuse(empty, message);
        }
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

    /** The guest's SvgOptions::validate for a title or class past its bound. */
    private static String svgRefusal(String title, byte[] titleBytes, String svgClass) {
        if (title != null) {
            if (titleBytes.length > Contract.MAX_SVG_TITLE_BYTES) {
                return Contract.fill(
                        Contract.TOO_LONG_TEMPLATE,
                        "option",
                        "title",
                        "max",
                        Contract.MAX_SVG_TITLE_BYTES,
                        "value",
                        titleBytes.length);
            }
            var found = NOT_XML_CHAR.matcher(title);
            if (found.find()) {
                int index = title.substring(0, found.start()).getBytes(StandardCharsets.UTF_8).length;
                return Contract.fill(
                        Contract.NOT_XML_CHAR_TEMPLATE,
                        "option",
                        "title",
                        "char",
                        "U+%04X".formatted((int) title.charAt(found.start())),
                        "index",
                        index);
            }
        }
        // Only an oversized class gets here (a title within bounds passed above):
        // the guest words it as it words a title over its bound.
        int classLength = svgClass.getBytes(StandardCharsets.UTF_8).length;
        return Contract.fill(
                Contract.TOO_LONG_TEMPLATE,
                "option",
                "class",
                "max",
                Contract.MAX_SVG_CLASS_BYTES,
                "value",
                classLength);
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

    private static long color(String option, String value, boolean empty) {
        long rgba = parseColor(value);
        if (rgba < 0) {
            throw refuse(
                    empty, Contract.fill(Contract.COLOR_TEMPLATE, "option", option, "value", RustDebug.quote(value)));
        }
        return rgba;
    }

    static QrException sameColors(long rgba) {
        return new QrException(
                "invalid-options", Contract.fill(Contract.SAME_COLORS_TEMPLATE, "value", "#%08x".formatted(rgba)));
    }

    private static boolean outside(OptionalLong value, long[] bounds) {
        return value.isPresent() && (value.getAsLong() < bounds[0] || value.getAsLong() > bounds[1]);
    }

    private static long inBounds(String option, long value, long[] bounds, boolean empty) {
        if (value < bounds[0] || value > bounds[1]) {
            throw refuse(empty, outOfRange(option, value, bounds));
        }
        return value;
    }

    private static String outOfRange(String option, long value, long[] bounds) {
        return Contract.fill(
                Contract.OUT_OF_RANGE_TEMPLATE, "option", option, "min", bounds[0], "max", bounds[1], "value", value);
    }

    /** empty-text is checked before the options: an empty text wins. */
    static QrException refuse(boolean empty, String message) {
        return empty ? QrException.emptyText() : new QrException("invalid-options", message);
    }
}

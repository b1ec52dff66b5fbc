package dev.qrglue.server;

import dev.qrglue.Contract;
import dev.qrglue.EcLevel;
import dev.qrglue.Options;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The request target and the query of GET /qrcode (tests/http/README.md), checked in the contract's
 * order: bad-query (syntax, names, repeats, missing text), invalid-text, empty-text, text-too-long,
 * then invalid-options for values not of their option's form, in WIT field order. Ranges are the
 * generator's (restated by {@link #checkRanges} for the tiers without one). The same rules as
 * hosts/rust/http-query, hosts/node/server/contract.mjs and hosts/python/server/http_contract.py; all
 * of them run tests/http/query_cases.json. Everything of the grammar is in this class, so that one
 * shared parser can replace it.
 */
final class QueryGrammar {
    private QueryGrammar() {}

    static final int MAX_TEXT_BYTES = 512;
    static final String REFERENCE_TEXT = "https://www.reddit.com/r/rustjerk/top/?t=all";
    static final List<String> EC_LEVELS = List.of("low", "medium", "quartile", "high");
    static final String NOT_UTF8_TEMPLATE = "text is not valid UTF-8 from byte {index}";
    /** The query's names: the WIT names, in WIT field order. */
    static final List<String> NAMES = List.of(
            "text",
            "ec-level",
            "min-size",
            "quiet-zone",
            "scale",
            "dark",
            "light",
            "micro",
            "version",
            "min-version",
            "mask",
            "boost-ec",
            "eci");

    static final String UNKNOWN_NAME_MESSAGE = "unknown query parameter (known: " + String.join(", ", NAMES) + ")";
    static final String UNKNOWN_METHOD_MESSAGE = "unknown method (methods are case-sensitive: GET and HEAD are served)";
    static final String NO_HOST_MESSAGE = "an HTTP/1.1 request must have a Host header";
    static final String BAD_REQUEST_MESSAGE = "malformed HTTP request";
    static final String HEAD_TOO_LARGE_MESSAGE = "request head larger than 16 KiB";

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,10}");
    private static final Pattern COLOR = Pattern.compile("#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})");
    private static final Pattern ABSOLUTE = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://");
    private static final List<String> NOT_ALLOWED =
            List.of("POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    /**
     * A checked query: the text (empty means empty-text, which the caller's generator words) and the
     * options given, by WIT name, in WIT order: ec-level a String, numbers Long, colours
     * "#rrggbbaa" (lowercase), booleans Boolean.
     */
    record Query(String text, Map<String, Object> given) {
        boolean empty() {
            return text.isEmpty();
        }

        /** The options given, on top of the library's defaults. */
        Options options() {
            Options.Builder b = Options.builder();
            given.forEach((name, value) -> {
                switch (name) {
                    case "ec-level" -> b.ecLevel(EcLevel.fromWitName((String) value));
                    case "min-size" -> b.minSize((Long) value);
                    case "quiet-zone" -> b.quietZone((Long) value);
                    case "scale" -> b.scale((Long) value);
                    case "dark" -> b.dark((String) value);
                    case "light" -> b.light((String) value);
                    case "micro" -> b.micro((Boolean) value);
                    case "version" -> b.version((Long) value);
                    case "min-version" -> b.minVersion((Long) value);
                    case "mask" -> b.mask((Long) value);
                    case "boost-ec" -> b.boostEc((Boolean) value);
                    case "eci" -> b.eci((Boolean) value);
                    default -> throw new IllegalArgumentException(name);
                }
            });
            return b.build();
        }
    }

    /** The raw query (after '?', or "") checked; an HttpError for the first thing wrong. */
    static Query parse(String query) {
        Map<String, byte[]> found = new LinkedHashMap<>();
        for (String part : query.split("&", -1)) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = latin1(decode(eq < 0 ? part : part.substring(0, eq)));
            byte[] value = decode(eq < 0 ? "" : part.substring(eq + 1));
            if (!NAMES.contains(name)) {
                throw new HttpError("bad-query", UNKNOWN_NAME_MESSAGE);
            }
            if (found.put(name, value) != null) {
                throw new HttpError("bad-query", "query parameter " + name + " is given more than once");
            }
        }
        byte[] raw = found.get("text");
        if (raw == null) {
            throw new HttpError("bad-query", "query parameter text is required");
        }
        int bad = Utf8.validUpTo(raw);
        if (bad < raw.length) {
            throw new HttpError("invalid-text", utf8Problem(raw, bad));
        }
        String text = new String(raw, StandardCharsets.UTF_8);
        Map<String, Object> given = new LinkedHashMap<>();
        if (text.isEmpty()) {
            return new Query(text, given);
        }
        if (raw.length > MAX_TEXT_BYTES) {
            throw new HttpError(
                    "text-too-long", "text is longer than " + MAX_TEXT_BYTES + " UTF-8 bytes (this endpoint's limit)");
        }
        for (String name : NAMES.subList(1, NAMES.size())) {
            byte[] value = found.get(name);
            if (value == null) {
                continue;
            }
            String s = latin1(value);
            given.put(
                    name,
                    switch (name) {
                        case "ec-level" -> {
                            if (!EC_LEVELS.contains(s)) {
                                throw new HttpError(
                                        "invalid-options", "ec-level must be one of low, medium, quartile, high");
                            }
                            yield s;
                        }
                        case "dark", "light" -> color(name, s);
                        case "micro", "boost-ec", "eci" -> {
                            if (!s.equals("true") && !s.equals("false")) {
                                throw new HttpError("invalid-options", name + " must be true or false");
                            }
                            yield s.equals("true");
                        }
                        default -> {
                            if (!DIGITS.matcher(s).matches() || Long.parseLong(s) > 0xffff_ffffL) {
                                throw new HttpError(
                                        "invalid-options", name + " must be a decimal integer within 0..=4294967295");
                            }
                            yield Long.parseLong(s);
                        }
                    });
        }
        return new Query(text, given);
    }

    /** '+' is a space, %XY the byte 0xXY, any other char its own byte (the target arrives as Latin-1). */
    private static byte[] decode(String part) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(part.length());
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c == '%') {
                int hi = i + 1 < part.length() ? Character.digit(part.charAt(i + 1), 16) : -1;
                int lo = i + 2 < part.length() ? Character.digit(part.charAt(i + 2), 16) : -1;
                // Character.digit takes other scripts' digits too: ASCII hex only.
                if (hi < 0 || lo < 0 || part.charAt(i + 1) > 'f' || part.charAt(i + 2) > 'f') {
                    throw new HttpError(
                            "bad-query",
                            "malformed percent-encoding in the query (a % must be followed by two hex digits)");
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                out.write(c & 0xff);
            }
        }
        return out.toByteArray();
    }

    private static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The lone-surrogate message if an encoded surrogate starts where the valid UTF-8 ends, else not-utf8. */
    private static String utf8Problem(byte[] b, int at) {
        if (at + 2 < b.length
                && (b[at] & 0xff) == 0xed
                && (b[at + 1] & 0xff) >= 0xa0
                && (b[at + 1] & 0xff) <= 0xbf
                && (b[at + 2] & 0xc0) == 0x80) {
            return Contract.LONE_SURROGATE_MESSAGE;
        }
        return NOT_UTF8_TEMPLATE.replace("{index}", Integer.toString(at));
    }

    /** A CSS hex colour -> "#rrggbbaa", lowercase; the message never shows the value. */
    private static String color(String name, String s) {
        if (!COLOR.matcher(s).matches()) {
            throw new HttpError(
                    "invalid-options", name + " must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)");
        }
        String digits = s.substring(1).toLowerCase(java.util.Locale.ROOT);
        if (digits.length() <= 4) {
            StringBuilder doubled = new StringBuilder();
            for (char d : digits.toCharArray()) {
                doubled.append(d).append(d);
            }
            digits = doubled.toString();
        }
        return "#" + (digits.length() == 6 ? digits + "ff" : digits);
    }

    /**
     * The generator's own option checks (qrglue-core's Options::validate) in its order and words, for
     * the tiers with no qrglue call (static, zxing): min-size, quiet-zone, scale, equal colours, then
     * the symbol's version, min-version, both given, mask, Micro QR at high, Micro QR with eci.
     */
    static void checkRanges(Map<String, Object> given) {
        long minSize = (Long) given.getOrDefault("min-size", (long) Contract.DEFAULT_MIN_SIZE);
        long quietZone = (Long) given.getOrDefault("quiet-zone", (long) Contract.DEFAULT_QUIET_ZONE);
        outside("min-size", minSize, Contract.MIN_SIZE_BOUNDS);
        outside("quiet-zone", quietZone, Contract.QUIET_ZONE_BOUNDS);
        if (given.containsKey("scale")) {
            outside("scale", (Long) given.get("scale"), Contract.SCALE_BOUNDS);
        }
        String dark = (String) given.getOrDefault("dark", Contract.DEFAULT_DARK);
        if (dark.equals(given.getOrDefault("light", Contract.DEFAULT_LIGHT))) {
            throw new HttpError("invalid-options", Contract.SAME_COLORS_TEMPLATE.replace("{value}", dark));
        }
        boolean micro = Boolean.TRUE.equals(given.get("micro"));
        long[] versions = micro ? Contract.MICRO_VERSION_BOUNDS : Contract.VERSION_BOUNDS;
        for (String name : List.of("version", "min-version")) {
            if (given.containsKey(name)) {
                outside(name, (Long) given.get(name), versions);
            }
        }
        if (given.containsKey("version") && given.containsKey("min-version")) {
            throw new HttpError("invalid-options", Contract.VERSION_CONFLICT_MESSAGE);
        }
        if (given.containsKey("mask")) {
            outside("mask", (Long) given.get("mask"), micro ? Contract.MICRO_MASK_BOUNDS : Contract.MASK_BOUNDS);
        }
        if (micro && "high".equals(given.get("ec-level"))) {
            throw new HttpError("invalid-options", Contract.MICRO_EC_LEVEL_MESSAGE);
        }
        if (micro && Boolean.TRUE.equals(given.get("eci"))) {
            throw new HttpError("invalid-options", Contract.MICRO_ECI_MESSAGE);
        }
    }

    private static void outside(String name, long value, long[] bounds) {
        if (value < bounds[0] || value > bounds[1]) {
            throw new HttpError(
                    "invalid-options",
                    Contract.OUT_OF_RANGE_TEMPLATE
                            .replace("{option}", name)
                            .replace("{min}", Long.toString(bounds[0]))
                            .replace("{max}", Long.toString(bounds[1]))
                            .replace("{value}", Long.toString(value)));
        }
    }

    /** "served" (GET, HEAD), "not-allowed" (405) or "unknown" (400: methods are case-sensitive). */
    static String methodClass(String method) {
        if (method.equals("GET") || method.equals("HEAD")) {
            return "served";
        }
        return NOT_ALLOWED.contains(method) ? "not-allowed" : "unknown";
    }

    /**
     * A request target -> {path, query}: a fragment (a raw '#' on) dropped, an absolute-form target
     * reduced to its path and query whatever its scheme and authority, an empty path "/". Nothing is
     * decoded.
     */
    static String[] pathAndQuery(String target) {
        int hash = target.indexOf('#');
        String t = hash < 0 ? target : target.substring(0, hash);
        var absolute = ABSOLUTE.matcher(t);
        if (!t.startsWith("/") && absolute.find()) {
            String rest = t.substring(absolute.end());
            int at = -1;
            for (int i = 0; i < rest.length(); i++) {
                if (rest.charAt(i) == '/' || rest.charAt(i) == '?') {
                    at = i;
                    break;
                }
            }
            t = at < 0 ? "" : rest.substring(at);
        }
        int q = t.indexOf('?');
        String path = q < 0 ? t : t.substring(0, q);
        return new String[] {path.isEmpty() ? "/" : path, q < 0 ? "" : t.substring(q + 1)};
    }

    /** Rust's str::from_utf8(..).valid_up_to(): where the longest valid UTF-8 prefix ends. */
    static final class Utf8 {
        private Utf8() {}

        static int validUpTo(byte[] b) {
            int i = 0;
            while (i < b.length) {
                int c = b[i] & 0xff;
                int need;
                int lo = 0x80;
                int hi = 0xbf;
                if (c < 0x80) {
                    i++;
                    continue;
                } else if (c >= 0xc2 && c <= 0xdf) {
                    need = 1;
                } else if (c >= 0xe0 && c <= 0xef) {
                    need = 2;
                    if (c == 0xe0) lo = 0xa0;
                    if (c == 0xed) hi = 0x9f;
                } else if (c >= 0xf0 && c <= 0xf4) {
                    need = 3;
                    if (c == 0xf0) lo = 0x90;
                    if (c == 0xf4) hi = 0x8f;
                } else {
                    return i;
                }
                if (i + need > b.length - 1) {
                    return i;
                }
                int second = b[i + 1] & 0xff;
                if (second < lo || second > hi) {
                    return i;
                }
                for (int k = 2; k <= need; k++) {
                    if ((b[i + k] & 0xc0) != 0x80) {
                        return i;
                    }
                }
                i += need + 1;
            }
            return b.length;
        }
    }
}

package dev.qrglue;

/**
 * A string as Rust's {@code {:?}} quotes it, as the guest's class message shows it: in double quotes,
 * {@code "} and {@code \} backslashed, NUL, tab, CR and LF as {@code \0 \t \r \n}, and as
 * {@code \}{@code u{hex}} every character Rust does not print as it is (controls, formats, separators
 * but the space, unassigned and private-use code points, combining marks). Exact for ASCII; for the
 * rest it reads Java's Unicode data, which may differ from Rust's for the newest code points and a few
 * spacing marks Rust counts as grapheme extenders (hosts/python's rust_debug_str lists them).
 */
final class RustDebug {
    private RustDebug() {}

    static String quote(String value) {
        StringBuilder out = new StringBuilder("\"");
        value.codePoints().forEach(cp -> {
            switch (cp) {
                case 0 -> out.append("\\0");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\n' -> out.append("\\n");
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                default -> {
                    if (printable(cp)) {
                        out.appendCodePoint(cp);
                    } else {
                        out.append("\\u{").append(Integer.toHexString(cp)).append('}');
                    }
                }
            }
        });
        return out.append('"').toString();
    }

    private static boolean printable(int cp) {
        if (cp == ' ') {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.SURROGATE,
                    Character.PRIVATE_USE,
                    Character.UNASSIGNED,
                    Character.SPACE_SEPARATOR,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR,
                    Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK -> false;
            default -> true;
        };
    }
}

package dev.qrglue;

/**
 * The generator on the compiled engine (Chicory's build-time compiler), as static functions: the
 * one-line way in. {@code new QrGenerator(Engine.INTERPRETED)} for the interpreter.
 */
public final class Qrglue {
    private Qrglue() {}

    private static final QrGenerator COMPILED = new QrGenerator(Engine.COMPILED);

    /** The shared generator on the compiled engine (thread-safe). */
    public static QrGenerator generator() {
        return COMPILED;
    }

    public static byte[] png(String text, Options options) {
        return COMPILED.png(text, options);
    }

    public static byte[] png(String text) {
        return COMPILED.png(text);
    }

    public static byte[] png(byte[] data, Options options) {
        return COMPILED.png(data, options);
    }

    public static String svg(String text, Options options, SvgOptions svg) {
        return COMPILED.svg(text, options, svg);
    }

    public static String svg(String text) {
        return COMPILED.svg(text);
    }

    public static String svg(byte[] data, Options options, SvgOptions svg) {
        return COMPILED.svg(data, options, svg);
    }

    public static QrMatrix matrix(String text, Options options) {
        return COMPILED.matrix(text, options);
    }

    public static QrMatrix matrix(byte[] data, Options options) {
        return COMPILED.matrix(data, options);
    }

    public static String text(String text, Options options, TextStyle style) {
        return COMPILED.text(text, options, style);
    }

    public static String text(byte[] data, Options options, TextStyle style) {
        return COMPILED.text(data, options, style);
    }

    public static String pngDataUrl(String text, Options options) {
        return COMPILED.pngDataUrl(text, options);
    }

    public static String svgDataUrl(String text, Options options, SvgOptions svg) {
        return COMPILED.svgDataUrl(text, options, svg);
    }
}

package dev.qrglue;

/**
 * The generator on the compiled engine (Chicory's build-time compiler), as static functions: the
 * one-line way in. {@code new QrGenerator(Engine.INTERPRETED)} for the interpreter.
 */
public final class Qrglue {
    private Qrglue() {}

    private static final QrGenerator COMPILED = new QrGenerator(Engine.COMPILED);

    /**
     * The shared generator on the compiled engine.
     *
     * @return the one generator this class's functions call (thread-safe)
     */
    public static QrGenerator generator() {
        return COMPILED;
    }

    /**
     * {@link QrGenerator#png(String, Options)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the PNG file's bytes
     * @throws QrException the contract's refusal (see {@link QrGenerator#png(String, Options)})
     */
    public static byte[] png(String text, Options options) {
        return COMPILED.png(text, options);
    }

    /**
     * {@link QrGenerator#png(String)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @return the PNG file's bytes
     * @throws QrException the contract's refusal (see {@link QrGenerator#png(String)})
     */
    public static byte[] png(String text) {
        return COMPILED.png(text);
    }

    /**
     * {@link QrGenerator#png(byte[], Options)} on the compiled engine.
     *
     * @param data the payload, 1 to 7089 bytes (copied first)
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the PNG file's bytes
     * @throws QrException the contract's refusal (see {@link QrGenerator#png(byte[], Options)})
     */
    public static byte[] png(byte[] data, Options options) {
        return COMPILED.png(data, options);
    }

    /**
     * {@link QrGenerator#svg(String, Options, SvgOptions)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param svg the SVG's own options ({@link SvgOptions#NONE}: none)
     * @return the SVG document
     * @throws QrException the contract's refusal (see {@link QrGenerator#svg(String, Options, SvgOptions)})
     */
    public static String svg(String text, Options options, SvgOptions svg) {
        return COMPILED.svg(text, options, svg);
    }

    /**
     * {@link QrGenerator#svg(String)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @return the SVG document
     * @throws QrException the contract's refusal (see {@link QrGenerator#svg(String)})
     */
    public static String svg(String text) {
        return COMPILED.svg(text);
    }

    /**
     * {@link QrGenerator#svg(byte[], Options, SvgOptions)} on the compiled engine.
     *
     * @param data the payload, 1 to 7089 bytes (copied first)
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param svg the SVG's own options ({@link SvgOptions#NONE}: none)
     * @return the SVG document
     * @throws QrException the contract's refusal (see {@link QrGenerator#svg(byte[], Options, SvgOptions)})
     */
    public static String svg(byte[] data, Options options, SvgOptions svg) {
        return COMPILED.svg(data, options, svg);
    }

    /**
     * {@link QrGenerator#matrix(String, Options)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the module matrix
     * @throws QrException the contract's refusal (see {@link QrGenerator#matrix(String, Options)})
     */
    public static QrMatrix matrix(String text, Options options) {
        return COMPILED.matrix(text, options);
    }

    /**
     * {@link QrGenerator#matrix(byte[], Options)} on the compiled engine.
     *
     * @param data the payload, 1 to 7089 bytes (copied first)
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the module matrix
     * @throws QrException the contract's refusal (see {@link QrGenerator#matrix(byte[], Options)})
     */
    public static QrMatrix matrix(byte[] data, Options options) {
        return COMPILED.matrix(data, options);
    }

    /**
     * {@link QrGenerator#text(String, Options, TextStyle)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param style how the modules are drawn
     * @return the lines
     * @throws QrException the contract's refusal (see {@link QrGenerator#text(String, Options, TextStyle)})
     */
    public static String text(String text, Options options, TextStyle style) {
        return COMPILED.text(text, options, style);
    }

    /**
     * {@link QrGenerator#text(byte[], Options, TextStyle)} on the compiled engine.
     *
     * @param data the payload, 1 to 7089 bytes (copied first)
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param style how the modules are drawn
     * @return the lines
     * @throws QrException the contract's refusal (see {@link QrGenerator#text(byte[], Options, TextStyle)})
     */
    public static String text(byte[] data, Options options, TextStyle style) {
        return COMPILED.text(data, options, style);
    }

    /**
     * {@link QrGenerator#pngDataUrl(String, Options)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the {@code data:image/png;base64,} URL
     * @throws QrException the contract's refusal (see {@link QrGenerator#pngDataUrl(String, Options)})
     */
    public static String pngDataUrl(String text, Options options) {
        return COMPILED.pngDataUrl(text, options);
    }

    /**
     * {@link QrGenerator#svgDataUrl(String, Options, SvgOptions)} on the compiled engine.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param svg the SVG's own options ({@link SvgOptions#NONE}: none)
     * @return the {@code data:image/svg+xml;base64,} URL
     * @throws QrException the contract's refusal (see {@link QrGenerator#svgDataUrl(String, Options, SvgOptions)})
     */
    public static String svgDataUrl(String text, Options options, SvgOptions svg) {
        return COMPILED.svgDataUrl(text, options, svg);
    }
}

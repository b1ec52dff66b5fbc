package dev.qrglue;

/**
 * The SVG calls' own options (WIT {@code svg-options}), immutable; {@link #NONE} is the default.
 *
 * @param viewBoxOnly leave out width and height: the document scales to its box
 * @param title a {@code <title>}, the code's accessible name (null: none); at most 1024 UTF-8 bytes of
 *     characters XML 1.0 can carry
 * @param svgClass the {@code <svg>} element's class (null: none): CSS class names separated by single
 *     spaces, 1 to 256 bytes
 */
public record SvgOptions(boolean viewBoxOnly, String title, String svgClass) {
    /** No SVG option: width and height, no title, no class. */
    public static final SvgOptions NONE = new SvgOptions(false, null, null);

    /**
     * These options with another {@code viewBoxOnly}.
     *
     * @param value the new viewBoxOnly
     * @return a new SvgOptions
     */
    public SvgOptions withViewBoxOnly(boolean value) {
        return new SvgOptions(value, title, svgClass);
    }

    /**
     * These options with another title (null: none).
     *
     * @param value the new title
     * @return a new SvgOptions
     */
    public SvgOptions withTitle(String value) {
        return new SvgOptions(viewBoxOnly, value, svgClass);
    }

    /**
     * These options with another class (null: none).
     *
     * @param value the new class
     * @return a new SvgOptions
     */
    public SvgOptions withSvgClass(String value) {
        return new SvgOptions(viewBoxOnly, title, value);
    }
}

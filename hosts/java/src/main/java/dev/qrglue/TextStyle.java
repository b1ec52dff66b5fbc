package dev.qrglue;

/** How {@code text} draws the modules, in WIT order (the raw ABI passes the ordinal). */
public enum TextStyle {
    /** Two module rows per line in half blocks, ink on the dark modules (the default). */
    HALF_BLOCKS("half-blocks"),
    /** Half blocks with ink on the light modules, for a dark terminal. */
    HALF_BLOCKS_INVERTED("half-blocks-inverted"),
    /** One line per module row: "##" for dark, two spaces for light. */
    ASCII("ascii");

    private final String witName;

    TextStyle(String witName) {
        this.witName = witName;
    }

    /**
     * The contract's name.
     *
     * @return the WIT case name
     */
    public String witName() {
        return witName;
    }

    /**
     * The style a contract name stands for.
     *
     * @param name a WIT case name
     * @return the style
     * @throws IllegalArgumentException if {@code name} is not a text style
     */
    public static TextStyle fromWitName(String name) {
        for (TextStyle style : values()) {
            if (style.witName.equals(name)) {
                return style;
            }
        }
        throw new IllegalArgumentException("not a text style: " + name);
    }
}

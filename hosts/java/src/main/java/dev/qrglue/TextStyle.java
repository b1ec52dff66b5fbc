package dev.qrglue;

/** How {@code text} draws the modules, in WIT order (the raw ABI passes the ordinal). */
public enum TextStyle {
    HALF_BLOCKS("half-blocks"),
    HALF_BLOCKS_INVERTED("half-blocks-inverted"),
    ASCII("ascii");

    private final String witName;

    TextStyle(String witName) {
        this.witName = witName;
    }

    /** The contract's name: half-blocks, half-blocks-inverted, ascii. */
    public String witName() {
        return witName;
    }

    /** The style a contract name stands for. */
    public static TextStyle fromWitName(String name) {
        for (TextStyle style : values()) {
            if (style.witName.equals(name)) {
                return style;
            }
        }
        throw new IllegalArgumentException("not a text style: " + name);
    }
}

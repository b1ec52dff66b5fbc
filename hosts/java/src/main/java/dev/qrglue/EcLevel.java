package dev.qrglue;

/** Error-correction level, in WIT order (the raw ABI passes the ordinal). */
public enum EcLevel {
    /** Low: about 7 % of codewords recoverable, the smallest code (the default). */
    LOW("low"),
    /** Medium: about 15 % recoverable. */
    MEDIUM("medium"),
    /** Quartile: about 25 % recoverable. */
    QUARTILE("quartile"),
    /** High: about 30 % recoverable, the largest code; not in Micro QR. */
    HIGH("high");

    private final String witName;

    EcLevel(String witName) {
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
     * The level a contract name (low, medium, ...) stands for.
     *
     * @param name a WIT case name
     * @return the level
     * @throws IllegalArgumentException if {@code name} is not an ec-level
     */
    public static EcLevel fromWitName(String name) {
        for (EcLevel level : values()) {
            if (level.witName.equals(name)) {
                return level;
            }
        }
        throw new IllegalArgumentException("not an ec-level: " + name);
    }
}

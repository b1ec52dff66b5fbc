package dev.qrglue;

/** Error-correction level, in WIT order (the raw ABI passes the ordinal). */
public enum EcLevel {
    LOW("low"),
    MEDIUM("medium"),
    QUARTILE("quartile"),
    HIGH("high");

    private final String witName;

    EcLevel(String witName) {
        this.witName = witName;
    }

    /** The contract's name: low, medium, quartile, high. */
    public String witName() {
        return witName;
    }

    /** The level a contract name (low, medium, ...) stands for. */
    public static EcLevel fromWitName(String name) {
        for (EcLevel level : values()) {
            if (level.witName.equals(name)) {
                return level;
            }
        }
        throw new IllegalArgumentException("not an ec-level: " + name);
    }
}

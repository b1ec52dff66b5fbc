// generated; do not edit.
// tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.

package dev.qrglue;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The options every output takes (WIT {@code options} with its {@code symbol-options}), immutable,
 * each at the contract's default unless set ({@link #DEFAULTS}). Numbers are {@code long} so that
 * any value a caller has reaches the checks and is named in the message as given: one outside u32
 * is the host's refusal, every bound and combination the guest's (docs/contract.md). Nothing is
 * checked here but nulls.
 *
 * @param ecLevel Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable. Default 'low'.
 * @param minSize Minimum image width and height in pixels. 1..=4096. Default 200.
 * @param quietZone Light margin around the code, in modules (the standard asks for 4). 0..=16. Default 4.
 * @param scale Pixels per module; when given it sizes the image (min-size is checked but unused). 1..=20. Default none.
 * @param dark The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa. Default '#000000ff'.
 * @param light The light modules' and the quiet zone's colour, as dark; must differ from dark. Default '#ffffffff'.
 * @param micro A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI. Default false.
 * @param version Exactly this version; a text it cannot hold is data-too-long. Not with min-version. 1..=40 (1..=4 with micro). Default none.
 * @param minVersion At least this version: the smallest from it up that holds the text. 1..=40 (1..=4 with micro). Default none.
 * @param mask This mask pattern instead of the one with the lowest penalty score. 0..=7 (0..=3 with micro). Default none.
 * @param boostEc Raise the EC level as far as the chosen version still holds the text. Default false.
 * @param eci Precede the data with ECI designator 26 (UTF-8); not with micro. Default false.
 */
public record Options(
        EcLevel ecLevel,
        long minSize,
        long quietZone,
        OptionalLong scale,
        String dark,
        String light,
        boolean micro,
        OptionalLong version,
        OptionalLong minVersion,
        OptionalLong mask,
        boolean boostEc,
        boolean eci) {

    /** Every option at the contract's default. */
    public static final Options DEFAULTS = builder().build();

    /**
     * The options as given: see {@link #builder()} to set only some.
     *
     * @throws NullPointerException if an object option is null
     */
    public Options {
        Objects.requireNonNull(ecLevel, "ecLevel");
        Objects.requireNonNull(scale, "scale");
        Objects.requireNonNull(dark, "dark");
        Objects.requireNonNull(light, "light");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(minVersion, "minVersion");
        Objects.requireNonNull(mask, "mask");
    }

    /**
     * A builder at the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder starting from these options.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ecLevel = ecLevel;
        b.minSize = minSize;
        b.quietZone = quietZone;
        b.scale = scale;
        b.dark = dark;
        b.light = light;
        b.micro = micro;
        b.version = version;
        b.minVersion = minVersion;
        b.mask = mask;
        b.boostEc = boostEc;
        b.eci = eci;
        return b;
    }

    /**
     * The option named {@code name} (its Java name), boxed: for a table-driven reader.
     *
     * @param name the option's Java name ({@code minSize}, ...)
     * @return its value, boxed
     * @throws IllegalArgumentException if no option has that name
     */
    public Object get(String name) {
        return switch (name) {
            case "ecLevel" -> ecLevel;
            case "minSize" -> minSize;
            case "quietZone" -> quietZone;
            case "scale" -> scale;
            case "dark" -> dark;
            case "light" -> light;
            case "micro" -> micro;
            case "version" -> version;
            case "minVersion" -> minVersion;
            case "mask" -> mask;
            case "boostEc" -> boostEc;
            case "eci" -> eci;
            default -> throw new IllegalArgumentException("no option " + name);
        };
    }

    /** The raw ABI's symbol_flags word (guest/raw/ABI.md). */
    long symbolFlags() {
        return 0
                | (micro ? 1 : 0)
                | (version.isPresent() ? 4 : 0)
                | (minVersion.isPresent() ? 8 : 0)
                | (mask.isPresent() ? 16 : 0)
                | (boostEc ? 2 : 0)
                | (eci ? 32 : 0);
    }

    /** Builds {@link Options}; every setter returns the builder. Not thread-safe. */
    public static final class Builder {
        private EcLevel ecLevel = EcLevel.fromWitName(Contract.DEFAULT_EC_LEVEL);
        private long minSize = Contract.DEFAULT_MIN_SIZE;
        private long quietZone = Contract.DEFAULT_QUIET_ZONE;
        private OptionalLong scale = OptionalLong.empty();
        private String dark = Contract.DEFAULT_DARK;
        private String light = Contract.DEFAULT_LIGHT;
        private boolean micro = Contract.DEFAULT_MICRO;
        private OptionalLong version = OptionalLong.empty();
        private OptionalLong minVersion = OptionalLong.empty();
        private OptionalLong mask = OptionalLong.empty();
        private boolean boostEc = Contract.DEFAULT_BOOST_EC;
        private boolean eci = Contract.DEFAULT_ECI;

        private Builder() {}

        /**
         * Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable. Default 'low'.
         *
         * @param value the ecLevel
         * @return this builder
         */
        public Builder ecLevel(EcLevel value) {
            ecLevel = Objects.requireNonNull(value, "ecLevel");
            return this;
        }

        /**
         * Minimum image width and height in pixels. 1..=4096. Default 200.
         *
         * @param value the minSize
         * @return this builder
         */
        public Builder minSize(long value) {
            minSize = value;
            return this;
        }

        /**
         * Light margin around the code, in modules (the standard asks for 4). 0..=16. Default 4.
         *
         * @param value the quietZone
         * @return this builder
         */
        public Builder quietZone(long value) {
            quietZone = value;
            return this;
        }

        /**
         * Pixels per module; when given it sizes the image (min-size is checked but unused). 1..=20. Default none.
         *
         * @param value the scale
         * @return this builder
         */
        public Builder scale(long value) {
            scale = OptionalLong.of(value);
            return this;
        }

        /**
         * Back to none, the default.
         *
         * @return this builder
         */
        public Builder noScale() {
            scale = OptionalLong.empty();
            return this;
        }

        /**
         * The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa. Default '#000000ff'.
         *
         * @param value the dark
         * @return this builder
         */
        public Builder dark(String value) {
            dark = Objects.requireNonNull(value, "dark");
            return this;
        }

        /**
         * The light modules' and the quiet zone's colour, as dark; must differ from dark. Default '#ffffffff'.
         *
         * @param value the light
         * @return this builder
         */
        public Builder light(String value) {
            light = Objects.requireNonNull(value, "light");
            return this;
        }

        /**
         * A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI. Default false.
         *
         * @param value the micro
         * @return this builder
         */
        public Builder micro(boolean value) {
            micro = value;
            return this;
        }

        /**
         * Exactly this version; a text it cannot hold is data-too-long. Not with min-version. 1..=40 (1..=4 with micro). Default none.
         *
         * @param value the version
         * @return this builder
         */
        public Builder version(long value) {
            version = OptionalLong.of(value);
            return this;
        }

        /**
         * Back to none, the default.
         *
         * @return this builder
         */
        public Builder noVersion() {
            version = OptionalLong.empty();
            return this;
        }

        /**
         * At least this version: the smallest from it up that holds the text. 1..=40 (1..=4 with micro). Default none.
         *
         * @param value the minVersion
         * @return this builder
         */
        public Builder minVersion(long value) {
            minVersion = OptionalLong.of(value);
            return this;
        }

        /**
         * Back to none, the default.
         *
         * @return this builder
         */
        public Builder noMinVersion() {
            minVersion = OptionalLong.empty();
            return this;
        }

        /**
         * This mask pattern instead of the one with the lowest penalty score. 0..=7 (0..=3 with micro). Default none.
         *
         * @param value the mask
         * @return this builder
         */
        public Builder mask(long value) {
            mask = OptionalLong.of(value);
            return this;
        }

        /**
         * Back to none, the default.
         *
         * @return this builder
         */
        public Builder noMask() {
            mask = OptionalLong.empty();
            return this;
        }

        /**
         * Raise the EC level as far as the chosen version still holds the text. Default false.
         *
         * @param value the boostEc
         * @return this builder
         */
        public Builder boostEc(boolean value) {
            boostEc = value;
            return this;
        }

        /**
         * Precede the data with ECI designator 26 (UTF-8); not with micro. Default false.
         *
         * @param value the eci
         * @return this builder
         */
        public Builder eci(boolean value) {
            eci = value;
            return this;
        }

        /** Sets the option named {@code name} (its Java name) to {@code value}, boxed (the CLI's table). */
        Builder set(String name, Object value) {
            return switch (name) {
                case "ecLevel" -> ecLevel((EcLevel) value);
                case "minSize" -> minSize((Long) value);
                case "quietZone" -> quietZone((Long) value);
                case "scale" -> scale((Long) value);
                case "dark" -> dark((String) value);
                case "light" -> light((String) value);
                case "micro" -> micro((Boolean) value);
                case "version" -> version((Long) value);
                case "minVersion" -> minVersion((Long) value);
                case "mask" -> mask((Long) value);
                case "boostEc" -> boostEc((Boolean) value);
                case "eci" -> eci((Boolean) value);
                default -> throw new IllegalArgumentException("no option " + name);
            };
        }

        /**
         * The options set so far, the others at their defaults.
         *
         * @return the options
         */
        public Options build() {
            return new Options(
                    ecLevel, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci);
        }
    }
}

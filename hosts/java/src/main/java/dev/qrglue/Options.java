package dev.qrglue;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The options every output takes (WIT {@code options} with its {@code symbol-options}), immutable. The
 * defaults are the contract's ({@link #DEFAULTS}: low, 200 px, 4 modules, no scale, black on opaque
 * white, the automatic symbol). Numbers are {@code long} so that any value a caller has reaches the
 * checks and is named in the message as given ({@code min-size must be within 1..=4096, got -1});
 * nothing is checked here but nulls: the contract's checks run at the call, in the contract's order
 * (an empty text wins over a bad option).
 *
 * @param ecLevel error-correction level
 * @param minSize minimum image width in pixels, 1..=4096 (ignored with a scale)
 * @param quietZone margin in modules, 0..=16
 * @param scale pixels per module, 1..=20: sizes the image instead of minSize
 * @param dark the dark modules' colour: #rgb, #rgba, #rrggbb or #rrggbbaa
 * @param light the light modules' and the quiet zone's colour, same forms
 * @param micro a Micro QR code (M1..M4)
 * @param version exactly this version (1..=40, 1..=4 with micro)
 * @param minVersion at least this version (same bounds; not with version)
 * @param mask this mask pattern (0..=7, 0..=3 with micro) instead of the best
 * @param boostEc raise the level as far as the version still holds the text
 * @param eci ECI designator 26 (UTF-8) before the data (not with micro)
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

    public Options {
        Objects.requireNonNull(ecLevel, "ecLevel");
        Objects.requireNonNull(scale, "scale");
        Objects.requireNonNull(dark, "dark");
        Objects.requireNonNull(light, "light");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(minVersion, "minVersion");
        Objects.requireNonNull(mask, "mask");
    }

    /** A builder at the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
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

    /** Whether every symbol option is at its default (the automatic symbol). */
    boolean automaticSymbol() {
        return !micro && version.isEmpty() && minVersion.isEmpty() && mask.isEmpty() && !boostEc && !eci;
    }

    /** Builds {@link Options}; every setter returns the builder. Not thread-safe. */
    public static final class Builder {
        private EcLevel ecLevel = EcLevel.LOW;
        private long minSize = Contract.DEFAULT_MIN_SIZE;
        private long quietZone = Contract.DEFAULT_QUIET_ZONE;
        private OptionalLong scale = OptionalLong.empty();
        private String dark = Contract.DEFAULT_DARK;
        private String light = Contract.DEFAULT_LIGHT;
        private boolean micro;
        private OptionalLong version = OptionalLong.empty();
        private OptionalLong minVersion = OptionalLong.empty();
        private OptionalLong mask = OptionalLong.empty();
        private boolean boostEc;
        private boolean eci;

        private Builder() {}

        public Builder ecLevel(EcLevel value) {
            ecLevel = Objects.requireNonNull(value, "ecLevel");
            return this;
        }

        public Builder minSize(long value) {
            minSize = value;
            return this;
        }

        public Builder quietZone(long value) {
            quietZone = value;
            return this;
        }

        public Builder scale(long value) {
            scale = OptionalLong.of(value);
            return this;
        }

        /** Back to no scale (the image sized by minSize). */
        public Builder noScale() {
            scale = OptionalLong.empty();
            return this;
        }

        public Builder dark(String value) {
            dark = Objects.requireNonNull(value, "dark");
            return this;
        }

        public Builder light(String value) {
            light = Objects.requireNonNull(value, "light");
            return this;
        }

        public Builder micro(boolean value) {
            micro = value;
            return this;
        }

        public Builder version(long value) {
            version = OptionalLong.of(value);
            return this;
        }

        public Builder minVersion(long value) {
            minVersion = OptionalLong.of(value);
            return this;
        }

        public Builder mask(long value) {
            mask = OptionalLong.of(value);
            return this;
        }

        public Builder boostEc(boolean value) {
            boostEc = value;
            return this;
        }

        public Builder eci(boolean value) {
            eci = value;
            return this;
        }

        public Options build() {
            return new Options(
                    ecLevel, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci);
        }
    }
}

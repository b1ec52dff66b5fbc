package dev.qrglue;

/**
 * What runs the generator for a {@link QrGenerator}: the raw module on Chicory ({@link RawGuest}) or
 * the Rust core through the FFM API ({@link NativeCore}). The input is already checked and lowered
 * ({@link Checks}); each call returns the payload or throws the core's refusal as a QrException.
 * {@code bytes} picks the binary-payload call (no UTF-8 check) over the text call.
 */
interface Core {
    byte[] png(byte[] data, boolean bytes, long[] options);

    byte[] svg(byte[] data, boolean bytes, long[] options, Checks.SvgArgs svg);

    byte[] matrix(byte[] data, boolean bytes, long[] options);

    byte[] text(byte[] data, boolean bytes, long[] options, int style);

    /** An empty call: the fixed cost of crossing into the core. */
    void noop();

    /** Probe: a deliberate failure inside the core (a wasm trap; a Rust panic caught at the boundary). */
    void fail();
}

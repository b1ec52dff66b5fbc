package dev.qrglue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.extism.sdk.chicory.ExtismFunctionException;
import org.extism.sdk.chicory.Plugin;

/**
 * One instance of guest/extism's plug-in (qrglue.extism-nosimd.wasm) through Extism's Chicory SDK
 * (org.extism.sdk:chicory-sdk-core): the raw ABI with Extism's memory model doing the alloc/pointer
 * work. Each call's input is the raw ABI's option words as {@link Checks} lowered them (the same longs
 * {@link RawGuest} passes as arguments), little-endian u32, then the payload (guest/extism/README.md);
 * the output is the raw ABI's payload. A contract error comes back as Extism's error string
 * {@code "<kind>: <message>"} and is thrown as the same QrException as on every other path; an error
 * without a known kind is a failure of the call (QrGenerator retires the instance). Not thread-safe:
 * a plug-in instance runs one call at a time; {@link QrGenerator} hands each call its own.
 */
final class ExtismGuest implements Core {
    private final Plugin plugin;

    ExtismGuest(Plugin plugin) {
        this.plugin = plugin;
    }

    @Override
    public byte[] png(byte[] data, boolean bytes, long[] options) {
        return call(bytes ? "qr_png_bytes" : "qr_png", words(options), data);
    }

    @Override
    public byte[] svg(byte[] data, boolean bytes, long[] options, Checks.SvgArgs svg) {
        ByteArrayOutputStream head = words(options, svg.flags(), svg.titleLength(), svg.strings().length);
        head.writeBytes(svg.strings());
        return call(bytes ? "qr_svg_bytes" : "qr_svg", head, data);
    }

    @Override
    public byte[] matrix(byte[] data, boolean bytes, long[] options) {
        return call(bytes ? "qr_matrix_bytes" : "qr_matrix", words(options), data);
    }

    @Override
    public byte[] text(byte[] data, boolean bytes, long[] options, int style) {
        return call(bytes ? "qr_text_bytes" : "qr_text", words(options, style), data);
    }

    @Override
    public void noop() {
        call("qr_noop", new ByteArrayOutputStream(), new byte[0]);
    }

    /** The plug-in has no qr_trap (Extism owns the instance): the probe is not available on this path. */
    @Override
    public void fail() {
        throw new UnsupportedOperationException("qr_trap is not available on the Extism path (guest/extism/README.md)");
    }

    /** The option words, then any further words, as little-endian u32s. */
    private static ByteArrayOutputStream words(long[] options, long... extra) {
        ByteBuffer buf =
                ByteBuffer.allocate(4 * (options.length + extra.length)).order(ByteOrder.LITTLE_ENDIAN);
        for (long word : options) {
            buf.putInt((int) word);
        }
        for (long word : extra) {
            buf.putInt((int) word);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(buf.capacity() + 64);
        out.writeBytes(buf.array());
        return out;
    }

    private byte[] call(String export, ByteArrayOutputStream head, byte[] payload) {
        head.writeBytes(payload);
        try {
            byte[] out = plugin.call(export, head.toByteArray());
            // The SDK hands back null for an empty output (qr_noop).
            return out == null ? new byte[0] : out;
        } catch (ExtismFunctionException e) {
            String error = e.getError() == null ? "" : e.getError();
            int colon = error.indexOf(": ");
            String kind = colon < 0 ? error : error.substring(0, colon);
            if (colon >= 0 && Contract.RAW_STATUS_KINDS.containsValue(kind)) {
                throw new QrException(kind, error.substring(colon + 2));
            }
            throw new IllegalStateException("qrglue.extism-nosimd.wasm failed in " + export + ": " + error, e);
        }
    }
}

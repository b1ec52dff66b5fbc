package dev.qrglue;

import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;

/**
 * One instance of qrglue.raw-nosimd.wasm and the glue written by hand against guest/raw/ABI.md
 * (version 7). Per call: qr_alloc the input, copy it in, call (the guest owns and frees the buffer),
 * read the 12-byte result record, copy the payload out, qr_free the record. Not thread-safe: a wasm
 * instance runs one call at a time; {@link QrGenerator} hands each call its own.
 */
final class RawGuest implements Core {
    private static final long U32 = 0xffff_ffffL;

    private final Memory memory;
    private final ExportFunction alloc;
    private final ExportFunction free;
    private final ExportFunction png;
    private final ExportFunction svg;
    private final ExportFunction matrix;
    private final ExportFunction text;
    private final ExportFunction pngBytes;
    private final ExportFunction svgBytes;
    private final ExportFunction matrixBytes;
    private final ExportFunction textBytes;
    private final ExportFunction noop;
    private final ExportFunction trap;
    private final ExportFunction memoryPages;

    RawGuest(Instance instance) {
        memory = instance.memory();
        alloc = instance.export("qr_alloc");
        free = instance.export("qr_free");
        png = instance.export("qr_png");
        svg = instance.export("qr_svg");
        matrix = instance.export("qr_matrix");
        text = instance.export("qr_text");
        pngBytes = instance.export("qr_png_bytes");
        svgBytes = instance.export("qr_svg_bytes");
        matrixBytes = instance.export("qr_matrix_bytes");
        textBytes = instance.export("qr_text_bytes");
        noop = instance.export("qr_noop");
        trap = instance.export("qr_trap");
        memoryPages = instance.export("qr_memory_pages");
        long version = instance.export("qr_abi_version").apply()[0] & U32;
        if (version != Contract.RAW_ABI_VERSION) {
            throw new IllegalStateException("qrglue.raw-nosimd.wasm speaks ABI version " + version
                    + ", this glue speaks " + Contract.RAW_ABI_VERSION);
        }
    }

    @Override
    public byte[] png(byte[] data, boolean bytes, long[] options) {
        return call(bytes ? pngBytes : png, data, options);
    }

    @Override
    public byte[] svg(byte[] data, boolean bytes, long[] options, Checks.SvgArgs args) {
        // Both buffers are the guest's from the call on (ABI.md: qr_svg).
        long strings = lower(args.strings());
        return call(
                bytes ? svgBytes : svg,
                data,
                options,
                args.flags(),
                args.titleLength(),
                strings,
                args.strings().length);
    }

    @Override
    public byte[] matrix(byte[] data, boolean bytes, long[] options) {
        return call(bytes ? matrixBytes : matrix, data, options);
    }

    @Override
    public byte[] text(byte[] data, boolean bytes, long[] options, int style) {
        return call(bytes ? textBytes : text, data, options, style);
    }

    @Override
    public void noop() {
        noop.apply();
    }

    /** qr_trap: a deliberate wasm trap. */
    @Override
    public void fail() {
        trap.apply();
    }

    /**
     * Calls a generating export: the input's buffer, then (ptr, len), the lowered options and any
     * further arguments; the payload, or the guest's refusal as a QrException.
     */
    private byte[] call(ExportFunction export, byte[] input, long[] options, long... extra) {
        long ptr = lower(input);
        long[] args = new long[2 + options.length + extra.length];
        args[0] = ptr;
        args[1] = input.length;
        System.arraycopy(options, 0, args, 2, options.length);
        System.arraycopy(extra, 0, args, 2 + options.length, extra.length);
        return result(export.apply(args)[0] & U32);
    }

    /** A fresh guest buffer holding data ((0) for no data); the next generating call owns it. */
    private long lower(byte[] data) {
        if (data.length == 0) {
            return 0;
        }
        long ptr = alloc.apply(data.length)[0] & U32;
        if (ptr == 0) {
            throw new IllegalStateException("qr_alloc(" + data.length + ") failed in the guest");
        }
        inside(ptr, data.length);
        memory.write((int) ptr, data);
        return ptr;
    }

    /** Reads and frees a result record: the payload (copied out), or the guest's QrException. */
    private byte[] result(long record) {
        inside(record, Contract.RAW_RECORD_BYTES);
        int status = memory.readInt((int) record);
        long payloadPtr = memory.readInt((int) record + 4) & U32;
        long payloadLength = memory.readInt((int) record + 8) & U32;
        byte[] payload = new byte[0];
        if (payloadLength > 0) {
            inside(payloadPtr, payloadLength);
            payload = memory.readBytes((int) payloadPtr, (int) payloadLength);
        }
        free.apply(record);
        if (status == 0) {
            return payload;
        }
        String kind = Contract.RAW_STATUS_KINDS.get(status);
        if (kind == null) {
            throw new IllegalStateException("qrglue.raw-nosimd.wasm returned unknown status " + status);
        }
        return throwRefusal(kind, payload);
    }

    private static byte[] throwRefusal(String kind, byte[] message) {
        throw new QrException(kind, new String(message, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Linear memory's size in 64 KiB pages, read by the guest (the bounded-memory probe). */
    long memoryPages() {
        return memoryPages.apply()[0] & U32;
    }

    private void inside(long ptr, long length) {
        long size = (long) memory.pages() * 65536;
        if (ptr + length > size) {
            throw new IllegalStateException("the guest returned a pointer outside its memory");
        }
    }
}

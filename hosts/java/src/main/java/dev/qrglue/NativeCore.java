package dev.qrglue;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The Rust core through the FFM API (java.lang.foreign): every downcall into hosts/c's C ABI library
 * (libqrglue_capi, the one the Go host links through cgo), written by hand against
 * hosts/c/include/qrglue.h, in this one class: the generator's calls (through {@link Core}) and the HTTP
 * endpoint's query grammar (through {@link HttpQuery}). jextract would generate the same handles, but it
 * is a separate JDK tool, not served by Maven Central, and the header has sixteen functions.
 *
 * <p>No panic crosses into the JVM: the library runs every call under catch_unwind and returns a panic
 * as status {@code QRGLUE_STATUS_PANIC} with its message (hosts/c/README.md), thrown here as an
 * IllegalStateException, which {@link QrGenerator} reports as a {@link GuestTrapException}. The library
 * keeps no state between calls, so one loaded copy serves every thread at once.
 *
 * <p>The input is copied into native memory of a confined arena per call rather than passed as a heap
 * segment: heap access needs {@code Linker.Option.critical}, which holds off the GC for the whole
 * call, and a 4096-px PNG takes milliseconds.
 */
// Restricted methods (dlopen, downcalls, reading the library's payload): the reason this class exists.
@SuppressWarnings("restricted")
final class NativeCore implements Core {
    /** hosts/c/include/qrglue.h's QRGLUE_CAPI_VERSION. */
    static final int CAPI_VERSION = 1;

    private static final int STATUS_PANIC = 5;

    // size_t is 64 bits on every platform the library is built for here (LP64).
    private static final StructLayout RESULT = MemoryLayout.structLayout(
            JAVA_INT.withName("status"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("payload"),
            JAVA_LONG.withName("payload_len"));
    private static final long RESULT_STATUS = RESULT.byteOffset(MemoryLayout.PathElement.groupElement("status"));
    private static final long RESULT_PAYLOAD = RESULT.byteOffset(MemoryLayout.PathElement.groupElement("payload"));
    private static final long RESULT_LENGTH = RESULT.byteOffset(MemoryLayout.PathElement.groupElement("payload_len"));

    /** QrglueOptions: the raw ABI's eleven u32 words, in Checks.lower's order. */
    private static final MemoryLayout OPTIONS = MemoryLayout.sequenceLayout(11, JAVA_INT);

    private static final StructLayout SVG_OPTIONS = MemoryLayout.structLayout(
            JAVA_INT.withName("flags"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("title"),
            JAVA_LONG.withName("title_len"),
            ADDRESS.withName("class_name"),
            JAVA_LONG.withName("class_len"));

    /** QrglueTarget: path_start, path_len, query_start, query_len (size_t each). */
    private static final MemoryLayout TARGET = MemoryLayout.sequenceLayout(4, JAVA_LONG);

    /** qrglue_parse_query's refusal statuses and their kinds (hosts/c/include/qrglue.h). */
    private static final Map<Integer, String> QUERY_STATUS_KINDS =
            Map.of(1, "empty-text", 2, "invalid-text", 4, "invalid-options", 6, "bad-query", 7, "text-too-long");

    private final MethodHandle png;
    private final MethodHandle pngBytes;
    private final MethodHandle svg;
    private final MethodHandle svgBytes;
    private final MethodHandle matrix;
    private final MethodHandle matrixBytes;
    private final MethodHandle text;
    private final MethodHandle textBytes;
    private final MethodHandle version;
    private final MethodHandle panicProbe;
    private final MethodHandle resultFree;
    private final MethodHandle parseQuery;
    private final MethodHandle pathAndQuery;
    private final MethodHandle methodClass;
    private final MethodHandle httpMessage;

    private NativeCore(SymbolLookup library) {
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor plain = FunctionDescriptor.of(RESULT, ADDRESS, JAVA_LONG, ADDRESS);
        FunctionDescriptor withSvg = FunctionDescriptor.of(RESULT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);
        FunctionDescriptor withStyle = FunctionDescriptor.of(RESULT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT);
        png = handle(linker, library, "qrglue_png", plain);
        pngBytes = handle(linker, library, "qrglue_png_bytes", plain);
        svg = handle(linker, library, "qrglue_svg", withSvg);
        svgBytes = handle(linker, library, "qrglue_svg_bytes", withSvg);
        matrix = handle(linker, library, "qrglue_matrix", plain);
        matrixBytes = handle(linker, library, "qrglue_matrix_bytes", plain);
        text = handle(linker, library, "qrglue_text", withStyle);
        textBytes = handle(linker, library, "qrglue_text_bytes", withStyle);
        version = handle(linker, library, "qrglue_capi_version", FunctionDescriptor.of(JAVA_INT));
        panicProbe = handle(linker, library, "qrglue_panic_probe", FunctionDescriptor.of(RESULT));
        resultFree = handle(linker, library, "qrglue_result_free", FunctionDescriptor.ofVoid(RESULT));
        parseQuery = handle(
                linker,
                library,
                "qrglue_parse_query",
                FunctionDescriptor.of(RESULT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
        pathAndQuery = handle(
                linker, library, "qrglue_path_and_query", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        methodClass =
                handle(linker, library, "qrglue_method_class", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        httpMessage = handle(linker, library, "qrglue_http_message", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
        int found;
        try {
            found = (int) version.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("qrglue_capi_version failed", t);
        }
        if (found != CAPI_VERSION) {
            throw new IllegalStateException(
                    "libqrglue_capi speaks C ABI version " + found + ", this glue speaks " + CAPI_VERSION);
        }
    }

    private static MethodHandle handle(Linker linker, SymbolLookup library, String name, FunctionDescriptor fn) {
        MemorySegment symbol =
                library.find(name).orElseThrow(() -> new IllegalStateException("libqrglue_capi has no symbol " + name));
        return linker.downcallHandle(symbol, fn);
    }

    /** The library, loaded once per process (holder class), or why it could not be. */
    private static final class Loaded {
        static final NativeCore CORE;
        static final RuntimeException FAILURE;

        static {
            NativeCore core = null;
            RuntimeException failure = null;
            try {
                core = new NativeCore(lookup());
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                failure =
                        new IllegalStateException("qrglue's native library could not be loaded: " + e.getMessage(), e);
            }
            CORE = core;
            FAILURE = failure;
        }
    }

    /** The loaded library; an IllegalStateException saying why if it cannot be loaded here. */
    static NativeCore get() {
        if (Loaded.CORE == null) {
            throw Loaded.FAILURE;
        }
        return Loaded.CORE;
    }

    /** Whether the library loads in this process (the CLI's and the server's `auto` path). */
    static boolean available() {
        return Loaded.CORE != null;
    }

    /**
     * The library: the path in the system property qrglue.capi if set, else the copy `just build-java`
     * put in the jar (dev/qrglue/native/, this platform's build of hosts/c), written to a temporary file
     * for dlopen and deleted once loaded (the mapping stays; nothing is left behind).
     */
    private static SymbolLookup lookup() {
        String given = System.getProperty("qrglue.capi");
        if (given != null) {
            return SymbolLookup.libraryLookup(Path.of(given), Arena.global());
        }
        String name = System.mapLibraryName("qrglue_capi");
        try (InputStream in = NativeCore.class.getResourceAsStream("native/" + name)) {
            if (in == null) {
                throw new IllegalStateException(
                        name + " is not in the jar (just build-capi, then just build-java; or -Dqrglue.capi=PATH)");
            }
            Path file = Files.createTempFile("qrglue_capi", "-" + name);
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                return SymbolLookup.libraryLookup(file, Arena.global());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public byte[] png(byte[] data, boolean bytes, long[] options) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment result = (MemorySegment) (bytes ? pngBytes : png)
                    .invokeExact((SegmentAllocator) arena, in(arena, data), (long) data.length, lower(arena, options));
            return take(result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public byte[] svg(byte[] data, boolean bytes, long[] options, Checks.SvgArgs args) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment svgOptions = arena.allocate(SVG_OPTIONS);
            MemorySegment strings = in(arena, args.strings());
            long titleLength = args.titleLength();
            long classLength = args.strings().length - titleLength;
            svgOptions.set(JAVA_INT, 0, args.flags());
            svgOptions.set(ADDRESS, 8, titleLength == 0 ? MemorySegment.NULL : strings);
            svgOptions.set(JAVA_LONG, 16, titleLength);
            svgOptions.set(ADDRESS, 24, classLength == 0 ? MemorySegment.NULL : strings.asSlice(titleLength));
            svgOptions.set(JAVA_LONG, 32, classLength);
            MemorySegment result = (MemorySegment) (bytes ? svgBytes : svg)
                    .invokeExact(
                            (SegmentAllocator) arena,
                            in(arena, data),
                            (long) data.length,
                            lower(arena, options),
                            svgOptions);
            return take(result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public byte[] matrix(byte[] data, boolean bytes, long[] options) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment result = (MemorySegment) (bytes ? matrixBytes : matrix)
                    .invokeExact((SegmentAllocator) arena, in(arena, data), (long) data.length, lower(arena, options));
            return take(result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public byte[] text(byte[] data, boolean bytes, long[] options, int style) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment result = (MemorySegment) (bytes ? textBytes : text)
                    .invokeExact(
                            (SegmentAllocator) arena,
                            in(arena, data),
                            (long) data.length,
                            lower(arena, options),
                            style);
            return take(result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** qrglue_capi_version: the emptiest call there is. */
    @Override
    public void noop() {
        try {
            int unused = (int) version.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** qrglue_panic_probe: a panic inside the library, which must come back as a status. */
    @Override
    public void fail() {
        try (Arena arena = Arena.ofConfined()) {
            take((MemorySegment) panicProbe.invokeExact((SegmentAllocator) arena));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The caller's bytes in native memory for the call (NULL for none: the header's null with length 0). */
    private static MemorySegment in(Arena arena, byte[] data) {
        return data.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, data);
    }

    /** The lowered options (Checks.lower: every value already within u32) as a QrglueOptions. */
    private static MemorySegment lower(Arena arena, long[] options) {
        MemorySegment segment = arena.allocate(OPTIONS);
        for (int i = 0; i < options.length; i++) {
            segment.setAtIndex(JAVA_INT, i, (int) options[i]);
        }
        return segment;
    }

    /**
     * qrglue_parse_query: the query's bytes -> the eleven QrglueOptions words and the text's UTF-8, or the
     * grammar's refusal as an HttpQuery.Refusal (its kind and message). flags: 0 or QRGLUE_QUERY_ALONE.
     */
    HttpQuery.Parsed parseQuery(byte[] query, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment options = arena.allocate(OPTIONS);
            MemorySegment result = (MemorySegment) parseQuery.invokeExact(
                    (SegmentAllocator) arena, in(arena, query), (long) query.length, flags, options);
            int status = result.get(JAVA_INT, RESULT_STATUS);
            byte[] payload = payload(result);
            if (status != 0) {
                String kind = QUERY_STATUS_KINDS.get(status);
                String message = new String(payload, StandardCharsets.UTF_8);
                if (kind == null) {
                    throw new IllegalStateException("qrglue_parse_query: status " + status + ": " + message);
                }
                throw new HttpQuery.Refusal(kind, message);
            }
            return new HttpQuery.Parsed(payload, options.toArray(JAVA_INT));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** qrglue_path_and_query: {path_start, path_len, query_start, query_len} in the target's bytes. */
    long[] pathAndQuery(byte[] target) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(TARGET);
            int status = (int) pathAndQuery.invokeExact(in(arena, target), (long) target.length, out);
            if (status != 0) {
                throw new IllegalStateException("qrglue_path_and_query returned " + status);
            }
            return out.toArray(JAVA_LONG);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** qrglue_method_class: QRGLUE_METHOD_SERVED 0, _NOT_ALLOWED 1 or _UNKNOWN 2. */
    int methodClass(byte[] method) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) methodClass.invokeExact(in(arena, method), (long) method.length);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** qrglue_http_message: one of the endpoint's fixed messages (static UTF-8 in the library). */
    String httpMessage(int which) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment length = arena.allocate(JAVA_LONG);
            MemorySegment text = (MemorySegment) httpMessage.invokeExact(which, length);
            long n = length.get(JAVA_LONG, 0);
            if (text.equals(MemorySegment.NULL)) {
                throw new IllegalArgumentException("qrglue_http_message has no message " + which);
            }
            return new String(text.reinterpret(n).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A result's payload copied onto the heap, and the result freed (once, whatever the status). */
    private byte[] payload(MemorySegment result) throws Throwable {
        long length = result.get(JAVA_LONG, RESULT_LENGTH);
        try {
            if (length < 0 || length > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("libqrglue_capi returned a payload of " + length + " bytes");
            }
            return length == 0
                    ? new byte[0]
                    : result.get(ADDRESS, RESULT_PAYLOAD).reinterpret(length).toArray(JAVA_BYTE);
        } finally {
            resultFree.invokeExact(result);
        }
    }

    /**
     * A result: its payload (see {@link #payload}), the core's refusal as a QrException, or a panic as
     * an IllegalStateException.
     */
    private byte[] take(MemorySegment result) throws Throwable {
        int status = result.get(JAVA_INT, RESULT_STATUS);
        byte[] payload = payload(result);
        if (status == 0) {
            return payload;
        }
        String message = new String(payload, StandardCharsets.UTF_8);
        if (status == STATUS_PANIC) {
            throw new IllegalStateException(message);
        }
        String kind = Contract.RAW_STATUS_KINDS.get(status);
        if (kind == null) {
            throw new IllegalStateException("libqrglue_capi returned unknown status " + status);
        }
        throw new QrException(kind, message);
    }
}

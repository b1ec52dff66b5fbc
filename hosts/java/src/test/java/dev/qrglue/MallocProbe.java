package dev.qrglue;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;

/**
 * The bytes the C heap has handed out and not had back (glibc's mallinfo2().uordblks), for the native
 * path's leak test: the Rust library allocates with the system allocator, so a result never freed shows
 * here.
 */
@SuppressWarnings("restricted")
final class MallocProbe {
    private MallocProbe() {}

    // struct mallinfo2: ten size_t fields; uordblks (allocated bytes in use) is the eighth.
    // (A struct layout: a function descriptor takes no sequence layout by value.)
    private static final MemoryLayout MALLINFO2 = MemoryLayout.structLayout(
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG);
    private static final MethodHandle MALLINFO = Linker.nativeLinker()
            .downcallHandle(
                    Linker.nativeLinker().defaultLookup().find("mallinfo2").orElseThrow(),
                    FunctionDescriptor.of(MALLINFO2));

    static long inUse() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = (MemorySegment) MALLINFO.invokeExact((SegmentAllocator) arena);
            return info.getAtIndex(JAVA_LONG, 7);
        }
    }
}

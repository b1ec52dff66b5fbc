package dev.qrglue;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import dev.qrglue.gen.RawModule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.extism.sdk.chicory.CompiledPlugin;
import org.extism.sdk.chicory.Manifest;
import org.extism.sdk.chicory.ManifestWasm;
import org.extism.sdk.chicory.Plugin;

/**
 * What runs the generator: a Chicory machine over qrglue.raw-nosimd.wasm (Chicory runs no wasm SIMD,
 * so never the SIMD build; both parse the module once per process, each instance is then cheap to
 * make), or the Rust core itself through the FFM API ({@link #NATIVE}).
 */
public enum Engine {
    /** Chicory's interpreter over the whole module: no code generation, slowest calls. */
    INTERPRETED {
        @Override
        Core open() {
            return new RawGuest(Instance.builder(Interpreted.MODULE).build());
        }
    },
    /**
     * Chicory's build-time compiler: `mvn package` turned every wasm function into JVM bytecode
     * (dev.qrglue.gen.RawModule), which HotSpot then JIT-compiles like any Java method. What Chicory
     * recommends for a module known at build time: no compilation and no ASM at run time.
     */
    COMPILED {
        @Override
        Core open() {
            return new RawGuest(Instance.builder(Compiled.MODULE)
                    .withMachineFactory(RawModule::create)
                    .build());
        }
    },
    /**
     * guest/extism's plug-in (qrglue.extism-nosimd.wasm) through Extism's pure-JVM SDK on Chicory
     * ({@link ExtismGuest}): Extism's memory model in place of the hand-written raw ABI. The SDK
     * translates the module to JVM bytecode when the process first loads it (Chicory's run-time
     * compiler; the raw paths' COMPILED is done at build time), once per process.
     */
    EXTISM {
        @Override
        Core open() {
            return new ExtismGuest(Extism.PLUGIN.instantiate());
        }
    },
    /**
     * The Rust core compiled for this machine (hosts/c's libqrglue_capi, the Go host's native library),
     * called through the FFM API ({@link NativeCore}): no wasm at all. Fails with an
     * IllegalStateException at the first call where the library is not in the jar or does not load.
     */
    NATIVE {
        @Override
        Core open() {
            return NativeCore.get();
        }

        @Override
        boolean pooled() {
            return false;
        }
    };

    /**
     * A core to call: a fresh wasm instance (one call at a time), or the one loaded native library
     * (stateless, any number of threads at once).
     */
    abstract Core open();

    /** Whether {@link #open} makes instances that a QrGenerator pools and retires. */
    boolean pooled() {
        return true;
    }

    /**
     * The fastest engine this process can run.
     *
     * @return NATIVE if its library loads here, else COMPILED
     */
    public static Engine auto() {
        return NativeCore.available() ? NATIVE : COMPILED;
    }

    /** The whole module, from the jar (holder class: parsed on the first interpreted instance). */
    private static final class Interpreted {
        static final WasmModule MODULE = parse();

        private static WasmModule parse() {
            try (InputStream in = Engine.class.getResourceAsStream("qrglue.raw-nosimd.wasm")) {
                if (in == null) {
                    throw new IllegalStateException("qrglue.raw-nosimd.wasm is not in the jar (just build-java)");
                }
                return Parser.parse(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The plug-in, compiled once (holder class: on the first Extism instance). */
    private static final class Extism {
        // The guest's own memory maximum (1024 pages, 64 MiB), stated to Extism too, as the other hosts do.
        static final int MAX_PAGES = 1024;
        static final CompiledPlugin PLUGIN = compile();

        private static CompiledPlugin compile() {
            byte[] wasm;
            try (InputStream in = Engine.class.getResourceAsStream("qrglue.extism-nosimd.wasm")) {
                if (in == null) {
                    throw new IllegalStateException("qrglue.extism-nosimd.wasm is not in the jar (just build-java)");
                }
                wasm = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Manifest manifest = Manifest.ofWasms(
                            ManifestWasm.fromBytes(wasm).withName("qrglue").build())
                    .withOptions(new Manifest.Options().withAoT().withMemoryLimits(17, MAX_PAGES))
                    .build();
            return Plugin.ofManifest(manifest).compile();
        }
    }

    /** The compiler's stripped module (no function bodies: their bytecode is RawModule's). */
    private static final class Compiled {
        static final WasmModule MODULE = RawModule.load();
    }
}

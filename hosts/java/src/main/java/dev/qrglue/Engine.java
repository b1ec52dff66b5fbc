package dev.qrglue;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import dev.qrglue.gen.RawModule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Which Chicory machine runs qrglue.raw-nosimd.wasm (Chicory runs no wasm SIMD, so never the SIMD
 * build). Both parse the module once per process; each instance is then cheap to make.
 */
public enum Engine {
    /** Chicory's interpreter over the whole module: no code generation, slowest calls. */
    INTERPRETED {
        @Override
        Instance instantiate() {
            return Instance.builder(Interpreted.MODULE).build();
        }
    },
    /**
     * Chicory's build-time compiler: `mvn package` turned every wasm function into JVM bytecode
     * (dev.qrglue.gen.RawModule), which HotSpot then JIT-compiles like any Java method. What Chicory
     * recommends for a module known at build time: no compilation and no ASM at run time.
     */
    COMPILED {
        @Override
        Instance instantiate() {
            return Instance.builder(Compiled.MODULE)
                    .withMachineFactory(RawModule::create)
                    .build();
        }
    };

    /** A fresh instance of the module on this engine. */
    abstract Instance instantiate();

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

    /** The compiler's stripped module (no function bodies: their bytecode is RawModule's). */
    private static final class Compiled {
        static final WasmModule MODULE = RawModule.load();
    }
}

// The page's three bridges to the same Rust generator, loaded in a browser
// (the page and the bench worker both use this module):
//
//   component  qrglue.component.wasm through jco's output (hosts/node/gen)
//   raw        qrglue.raw.wasm through the hand-written raw-ABI glue
//   bindgen    the wasm-bindgen build (its `web` target, hosts/node/gen/bindgen)
//
// Every path has the Node package's API shape: png(text, options) ->
// Uint8Array, svg(text, options) -> string, QrError with `.kind`, plus the
// bench probes. Modules compile with WebAssembly.compileStreaming, so the .wasm
// compiles while it downloads and never hits Chromium's 8 MB limit on
// synchronous compiles on the main thread. Each path's glue is imported only
// when that path is chosen, so a path that is not built fails alone, with a
// message, and the others still work.
import { QrError, GuestTrapError } from '../node/lib/common.js';

export { QrError, GuestTrapError };

export const PATH_NAMES = Object.freeze(['component', 'raw', 'bindgen']);

const compile = (relative) => WebAssembly.compileStreaming(fetch(new URL(relative, import.meta.url)));

/**
 * Loads one path; resolves to `{ name, png, svg, probe }`. Rejects with an
 * Error saying what is missing when the path's files are not built.
 */
export async function loadPath(name) {
  switch (name) {
    case 'component': return loadComponent();
    case 'bindgen': return loadBindgen();
    default: throw new Error(`unknown path ${JSON.stringify(name)} (known: ${PATH_NAMES.join(', ')})`);
  }
}

// A path's files are build outputs: say which build makes them.
function notBuilt(path, what, error) {
  return new Error(`${path} path: could not load ${what} (built by \`just build-node\`): ${error.message}`);
}

async function loadBindgen() {
  const glue = await import('../node/lib/bindgen.js').catch((error) => { throw notBuilt('bindgen', 'its glue', error); });
  const module = await WebAssembly.compileStreaming(fetch(glue.BINDGEN_WASM_URL))
    .catch((error) => { throw notBuilt('bindgen', 'hosts/node/gen/bindgen/qrglue_bg.wasm', error); });
  glue.initBindgen(module);
  return { name: 'bindgen', png: glue.png, svg: glue.svg, probe: glue.probe };
}

async function loadComponent() {
  const { instantiate: instantiateComponent } = await import('../node/gen/qrglue.js')
    .catch((error) => { throw notBuilt('component', 'hosts/node/gen/qrglue.js', error); });
  const { checkText, resolveOptions } = await import('../node/lib/common.js');
  const coreModule = await compile('../node/gen/qrglue.core.wasm')
    .catch((error) => { throw notBuilt('component', 'hosts/node/gen/qrglue.core.wasm', error); });
  let exports;
  const fresh = () => {
    exports = instantiateComponent(() => coreModule, {});
  };
  fresh();
  const guestCall = (call) => {
    try {
      return call();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        fresh();
        throw new GuestTrapError('component', error);
      }
      const payload = error?.payload;
      if (payload !== undefined && typeof payload.tag === 'string') throw new QrError(payload.tag, payload.val);
      throw error;
    }
  };
  const witOptions = (text, options) => {
    checkText(text);
    const { ecLevel, minSize, quietZone } = resolveOptions(text, options);
    return { ecLevel, minSize, quietZone };
  };
  return {
    name: 'component',
    png: (text, options) => {
      const wit = witOptions(text, options);
      return guestCall(() => exports.generator.png(text, wit));
    },
    svg: (text, options) => {
      const wit = witOptions(text, options);
      return guestCall(() => exports.generator.svg(text, wit));
    },
    probe: {
      noop: () => guestCall(() => exports.probe.noop()),
      consume: (data) => guestCall(() => exports.probe.consume(data)),
      produce: (len) => guestCall(() => exports.probe.produce(len)),
      pngRepeat: (text, options, times) => {
        const wit = witOptions(text, options);
        return guestCall(() => exports.probe.pngRepeat(text, wit, times));
      },
    },
  };
}

// The page's three bridges to the same Rust generator, loaded in a browser
// (the page and the bench worker both use this module):
//
//   component  qrglue.component.wasm through jco's output (hosts/node/gen)
//   raw        qrglue.raw.wasm through the hand-written raw-ABI glue
//   bindgen    the wasm-bindgen build (its `web` target)
//
// Every path has the Node package's API shape: png(text, options) ->
// Uint8Array, svg(text, options) -> string, QrError with `.kind`, plus the
// bench probes. Modules compile with WebAssembly.compileStreaming, so the .wasm
// compiles while it downloads and never hits Chromium's 8 MB limit on
// synchronous compiles on the main thread.
import { instantiate as instantiateComponent } from '../node/gen/qrglue.js';
import { QrError, GuestTrapError, checkText, resolveOptions } from '../node/lib/common.js';

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
    default: throw new Error(`unknown path ${JSON.stringify(name)} (known: ${PATH_NAMES.join(', ')})`);
  }
}

async function loadComponent() {
  const coreModule = await compile('../node/gen/qrglue.core.wasm').catch((error) => {
    throw new Error(`component path: could not load hosts/node/gen/qrglue.core.wasm (run \`just build-node\`): ${error.message}`);
  });
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

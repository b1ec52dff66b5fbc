// The page's three bridges to the same Rust generator, loaded in a browser
// (the page and the bench worker both use this module):
//
//   component  qrglue.component.wasm through jco's output (hosts/node/gen)
//   raw        qrglue.raw.wasm through the hand-written raw-ABI glue
//   bindgen    the wasm-bindgen build (its `web` target, hosts/node/gen/bindgen)
//
// Every path has the Node package's API shape: png(input, options) ->
// Uint8Array, svg(input, options) -> string, matrix(input, options) -> { width,
// modules }, text(input, options) -> string, pngDataUrl/svgDataUrl(input,
// options) -> a data: URL, QrError with `.kind`, plus the bench probes; the
// input is a text (a string) or a binary payload (a Uint8Array, an
// ArrayBuffer or a DataView: the *-bytes generators). Modules compile with WebAssembly.compileStreaming, so the .wasm
// compiles while it downloads and never hits Chromium's 8 MB limit on
// synchronous compiles on the main thread. Each path's glue is imported only
// when that path is chosen, so a path that is not built fails alone, with a
// message, and the others still work.
import { QrError, GuestTrapError } from '../node/lib/common.js';

export { QrError, GuestTrapError };

export const PATH_NAMES = Object.freeze(['component', 'raw', 'bindgen']);

/**
 * Loads one path; resolves to `{ name, png, svg, matrix, text, pngDataUrl, svgDataUrl, probe }`. Rejects with an
 * Error saying what is missing when the path's files are not built.
 */
export async function loadPath(name) {
  switch (name) {
    case 'component': return loadComponent();
    case 'raw': return loadRaw();
    case 'bindgen': return loadBindgen();
    default: throw new Error(`unknown path ${JSON.stringify(name)} (known: ${PATH_NAMES.join(', ')})`);
  }
}

// What the page and the bench worker use of a path's glue.
const pathApi = (name, glue) => ({
  name, png: glue.png, svg: glue.svg, matrix: glue.matrix, text: glue.text,
  pngDataUrl: glue.pngDataUrl, svgDataUrl: glue.svgDataUrl, probe: glue.probe,
});

// A path's files are build outputs: say which build makes them.
function notBuilt(path, what, error) {
  return new Error(`${path} path: could not load ${what} (built by \`just build-node\`): ${error.message}`);
}

// The shared glue (hosts/node/lib) is runtime-agnostic: the Node entry points
// read the .wasm from disk, the page compiles it while it downloads and hands
// the module to the same init function.
const compile = (url, path, what) => WebAssembly.compileStreaming(fetch(url))
  .catch((error) => { throw notBuilt(path, what, error); });

async function loadComponent() {
  const glue = await import('../node/lib/component.js')
    .catch((error) => { throw notBuilt('component', 'hosts/node/gen/qrglue.js (jco\'s output)', error); });
  const module = await compile(glue.COMPONENT_CORE_URL, 'component', 'hosts/node/gen/qrglue.core.wasm');
  glue.initComponent(() => module);
  return pathApi('component', glue);
}

async function loadRaw() {
  const glue = await import('../node/lib/raw.js');
  const module = await compile(glue.RAW_WASM_URL, 'raw', 'hosts/node/wasm/qrglue.raw.wasm');
  glue.initRaw(module);
  return pathApi('raw', glue);
}

async function loadBindgen() {
  const glue = await import('../node/lib/bindgen.js')
    .catch((error) => { throw notBuilt('bindgen', 'hosts/node/gen/bindgen/qrglue.js (wasm-bindgen\'s output)', error); });
  const module = await compile(glue.BINDGEN_WASM_URL, 'bindgen', 'hosts/node/gen/bindgen/qrglue_bg.wasm');
  glue.initBindgen(module);
  return pathApi('bindgen', glue);
}

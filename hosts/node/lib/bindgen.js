// The wasm-bindgen path: guest/bindgen compiled to wasm, with the JS glue that
// wasm-bindgen-cli generates at build time into ../gen/bindgen/ (`just
// build-node`, `--target web`). The glue does the lowering and lifting; this
// file adds what it does not: the host-side checks (lone surrogates, oversized
// texts, option types), error mapping, and trap recovery.
//
// Runtime-agnostic: no Node API here. The glue is initialised synchronously
// from a compiled module or the .wasm bytes that the entry point supplies
// (qrglue/bindgen reads them with readFileSync; a page can compile
// BINDGEN_WASM_URL with WebAssembly.compileStreaming).
import * as glue from '../gen/bindgen/qrglue.js';
import { QrError, GuestTrapError, ERROR_KINDS, checkCount, dataUrlHelpers, flatGenerators } from './common.js';

/** Where the build puts the module the glue instantiates (beside the glue). */
export const BINDGEN_WASM_URL = new URL('../gen/bindgen/qrglue_bg.wasm', import.meta.url);

let initialised = false;
let spent = false; // the instance failed with something not in the contract: replace it
let instances = 0; // instances made so far (tests: a retired one is replaced)

/**
 * Instantiates the guest from `wasm` (a WebAssembly.Module, or the bytes of
 * BINDGEN_WASM_URL), synchronously. Call once before any other export; later
 * calls do nothing (as the glue's own initSync).
 */
export function initBindgen(wasm) {
  if (initialised) return;
  const module = wasm instanceof WebAssembly.Module ? wasm : new WebAssembly.Module(wasm);
  glue.initSync({ module });
  initialised = true;
  instances = 1;
}

const QR_ERROR_KINDS = new Set(ERROR_KINDS);

// Runs one guest call. The guest throws a core error as an Error whose `kind`
// is the WIT case and whose message is the core's: it becomes QrError with that
// message. Anything else (a trap, a RangeError from stack exhaustion, a
// failed allocation) leaves the instance in an unknown state (its stack
// pointer, its allocator): it is retired, and the next call first has the
// glue's __wbg_reset_state() replace it with a fresh instance of the same
// module, as the Rust host does. A trap is reported as GuestTrapError.
function guestCall(call) {
  if (!initialised) {
    throw new Error('qrglue bindgen: initBindgen(wasm) must run before the first call (qrglue/bindgen does it on import)');
  }
  if (spent) {
    glue.__wbg_reset_state();
    spent = false;
    instances += 1;
  }
  try {
    return call();
  } catch (error) {
    if (error instanceof Error && QR_ERROR_KINDS.has(error.kind)) {
      throw new QrError(error.kind, error.message);
    }
    spent = true;
    if (error instanceof WebAssembly.RuntimeError) {
      throw new GuestTrapError('bindgen', error);
    }
    throw error;
  }
}

// png, svg, matrix and text as on the native path (common.js
// flatGenerators). checkInput comes first there, and must: the glue encodes
// strings with TextEncoder, which turns a lone surrogate into U+FFFD (a
// different text), and copies the whole text (or payload) into guest memory;
// a payload's `&[u8]` is copied into guest memory once. The glue copies each
// result out of guest memory (`.slice()`) and frees it in the guest: the
// Uint8Array is ours.
const generators = flatGenerators(glue, guestCall);

export const { png, svg, matrix, text } = generators;

export const { pngDataUrl, svgDataUrl } = dataUrlHelpers(png, svg);

/** Probes of the bindgen path (for benchmarks and tests, not for users). */
export const probe = Object.freeze({
  path: 'bindgen',
  noop: () => guestCall(() => glue.noop()),
  consume: (data) => guestCall(() => glue.consume(data)),
  produce(len) {
    checkCount('len', len);
    return guestCall(() => glue.produce(len));
  },
  pngRepeat: generators.pngRepeat,
  trap: () => guestCall(() => glue.trap()),
  /** The guest's own answer: its linear memory size in 64 KiB pages. */
  memoryPages: () => guestCall(() => glue.memoryPages()),
  /** Current size of the guest's linear memory in bytes, read by the host. */
  memoryBytes: () => guestCall(() => glue.wasmMemory().buffer.byteLength),
  /** Instances made so far in this process: a retired instance is replaced. */
  instances: () => instances,
});

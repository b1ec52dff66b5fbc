// The Component Model path: qrglue.component.wasm, transpiled by jco at build
// time into ../gen/ (`just build-node`). jco does the lowering and lifting;
// this file adds what jco does not: the host-side checks (lone surrogates,
// oversized texts, option types), error mapping, and trap recovery.
//
// Transpiled with `--instantiation sync` (see README): `instantiate()` can be
// called again, which is the only way out of jco's trapped state (a trapped
// instance throws on every later call).
import { readFileSync } from 'node:fs';
import { instantiate } from '../gen/qrglue.js';
import { QrError, GuestTrapError, checkText, resolveOptions } from './common.js';

// Compiled once per process; a fresh instance after a trap only instantiates.
const coreModules = new Map();
function getCoreModule(name) {
  let module = coreModules.get(name);
  if (module === undefined) {
    module = new WebAssembly.Module(readFileSync(new URL(`../gen/${name}`, import.meta.url)));
    coreModules.set(name, module);
  }
  return module;
}

let exports;
let coreInstance; // kept only so tests and benchmarks can read the memory size

function freshInstance() {
  exports = instantiate(getCoreModule, {}, (module, imports) => {
    coreInstance = new WebAssembly.Instance(module, imports);
    return coreInstance;
  });
}
freshInstance();

// Runs one guest call; maps jco's ComponentError (payload = the qr-error
// variant {tag, val}) to QrError, and a trap to GuestTrapError plus a fresh
// instance.
function guestCall(call) {
  try {
    return call();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      freshInstance();
      throw new GuestTrapError('component', error);
    }
    const payload = error?.payload;
    if (payload !== undefined && typeof payload.tag === 'string') {
      throw new QrError(payload.tag, payload.val);
    }
    throw error;
  }
}

function witOptions(text, options) {
  checkText(text);
  const { ecLevel, minSize, quietZone } = resolveOptions(text, options);
  return { ecLevel, minSize, quietZone };
}

export function png(text, options) {
  const wit = witOptions(text, options);
  // jco copies list<u8> results out of linear memory: the Uint8Array is ours.
  return guestCall(() => exports.generator.png(text, wit));
}

export function svg(text, options) {
  const wit = witOptions(text, options);
  return guestCall(() => exports.generator.svg(text, wit));
}

/** Probes of the component path (for benchmarks and tests, not for users). */
export const probe = Object.freeze({
  path: 'component',
  noop: () => guestCall(() => exports.probe.noop()),
  consume: (data) => guestCall(() => exports.probe.consume(data)),
  produce: (len) => guestCall(() => exports.probe.produce(len)),
  pngRepeat(text, options, times) {
    const wit = witOptions(text, options);
    return guestCall(() => exports.probe.pngRepeat(text, wit, times));
  },
  trap: () => guestCall(() => exports.probe.trap()),
  /** The guest's own answer: its linear memory size in 64 KiB pages. */
  memoryPages: () => guestCall(() => exports.probe.memoryPages()),
  /** Current size of the guest's linear memory in bytes, read by the host. */
  memoryBytes: () => coreInstance.exports.memory.buffer.byteLength,
});

// The Component Model path: qrglue.component.wasm, transpiled by jco at build
// time into ../gen/ (`just build-node`). jco does the lowering and lifting;
// this file adds what jco does not: the host-side checks (lone surrogates,
// oversized texts and payloads, option types), the choice between a text call
// and its `*-bytes` twin, error mapping, and trap recovery.
//
// Transpiled with `--instantiation sync` (see README): `instantiate()` can be
// called again, which is the only way out of jco's trapped state (a trapped
// instance throws on every later call).
//
// Runtime-agnostic: no Node API here. The core module comes from the entry
// point: qrglue (index.js) reads it with readFileSync, the page in hosts/web
// compiles COMPONENT_CORE_URL with WebAssembly.compileStreaming; either calls
// initComponent.
import { instantiate } from '../gen/qrglue.js';
import {
  QrError, GuestTrapError, checkCount, checkInput, checkText, dataUrlHelpers, qrMatrix, resolveOptions, resolveSvgOptions,
  resolveTextOptions, witRecord,
} from './common.js';

/** jco's core module, beside its output (the component imports nothing, so it is the only one). */
export const COMPONENT_CORE_URL = new URL('../gen/qrglue.core.wasm', import.meta.url);

// Compiled once per process; a fresh instance after a trap only instantiates.
const coreModules = new Map();
let loadCoreModule = null;
function getCoreModule(name) {
  let module = coreModules.get(name);
  if (module === undefined) {
    const wasm = loadCoreModule(name);
    module = wasm instanceof WebAssembly.Module ? wasm : new WebAssembly.Module(wasm);
    coreModules.set(name, module);
  }
  return module;
}

let exports;
let coreInstance; // kept only so tests and benchmarks can read the memory size
let spent = false; // the instance failed with something not in the contract: replace it
let instances = 0; // instances made so far (tests: a retired one is replaced)

/**
 * Instantiates the component, synchronously. `coreModule(name)` returns jco's
 * core module `name` (e.g. "qrglue.core.wasm", beside COMPONENT_CORE_URL) as a
 * WebAssembly.Module or as its bytes; it is called once per name. Call once
 * before any other export; later calls do nothing.
 */
export function initComponent(coreModule) {
  if (exports !== undefined) return;
  loadCoreModule = coreModule;
  try {
    freshInstance();
  } catch (error) {
    coreModules.clear();
    exports = undefined;
    throw error;
  }
}

function freshInstance() {
  exports = instantiate(getCoreModule, {}, (module, imports) => {
    coreInstance = new WebAssembly.Instance(module, imports);
    return coreInstance;
  });
  spent = false;
  instances += 1;
}

// Runs one guest call; maps jco's ComponentError (payload = the qr-error
// variant {tag, val}) to QrError. Any other failure (a trap, which jco makes
// permanent for the instance, but also a RangeError from stack exhaustion
// or an allocation failure, which stop the guest half-way and leave its
// stack pointer and allocator wherever they were) retires the instance: the
// next call instantiates a fresh one first, as the Rust host does. A trap
// is reported as GuestTrapError; the others as they were thrown.
function guestCall(call) {
  if (exports === undefined) {
    throw new Error('qrglue component: initComponent(coreModule) must run before the first call (qrglue does it on import)');
  }
  if (spent) freshInstance();
  try {
    return call();
  } catch (error) {
    const payload = error?.payload;
    if (payload !== undefined && typeof payload.tag === 'string') {
      throw new QrError(payload.tag, payload.val);
    }
    spent = true;
    if (error instanceof WebAssembly.RuntimeError) {
      throw new GuestTrapError('component', error);
    }
    throw error;
  }
}

// The input checked (a text, or a payload as a plain Uint8Array: common.js
// checkInput) and the WIT options record of resolved options (common.js's
// witRecord: jco lowers an undefined scale or symbol as `none`).
function witArguments(input, options, caller) {
  const data = checkInput(input);
  return [data, witRecord(resolveOptions(options, caller))];
}

// A text goes to the WIT text call (jco encodes the string into guest memory),
// a payload to its `*-bytes` twin (jco copies the bytes into guest memory once).
export function png(input, options) {
  const [data, wit] = witArguments(input, options, 'png');
  // jco copies list<u8> results out of linear memory: the Uint8Array is ours.
  return guestCall(() => (typeof data === 'string' ? exports.generator.png(data, wit) : exports.generator.pngBytes(data, wit)));
}

// The third argument is the WIT `svg-options` record, jco's shape as common.js resolves it.
export function svg(input, options) {
  const data = checkInput(input);
  const resolved = resolveSvgOptions(options);
  const wit = witRecord(resolved);
  return guestCall(() => (typeof data === 'string'
    ? exports.generator.svg(data, wit, resolved.svg) : exports.generator.svgBytes(data, wit, resolved.svg)));
}

export function matrix(input, options) {
  const [data, wit] = witArguments(input, options, 'matrix');
  // jco lifts the qr-matrix record as { width, modules }, modules copied out.
  const { width, modules } = guestCall(() =>
    (typeof data === 'string' ? exports.generator.matrix(data, wit) : exports.generator.matrixBytes(data, wit)));
  return qrMatrix(width, modules);
}

export function text(input, options) {
  const data = checkInput(input);
  const resolved = resolveTextOptions(options);
  // jco lowers the text-style enum from its WIT case name.
  const wit = witRecord(resolved);
  return guestCall(() => (typeof data === 'string'
    ? exports.generator.text(data, wit, resolved.style) : exports.generator.textBytes(data, wit, resolved.style)));
}

export const { pngDataUrl, svgDataUrl } = dataUrlHelpers(png, svg);

/** Probes of the component path (for benchmarks and tests, not for users). */
export const probe = Object.freeze({
  path: 'component',
  noop: () => guestCall(() => exports.probe.noop()),
  consume: (data) => guestCall(() => exports.probe.consume(data)),
  produce(len) {
    checkCount('len', len);
    return guestCall(() => exports.probe.produce(len));
  },
  pngRepeat(text, options, times) {
    checkCount('times', times);
    checkText(text);
    const wit = witRecord(resolveOptions(options, 'pngRepeat'));
    return guestCall(() => exports.probe.pngRepeat(text, wit, times));
  },
  trap: () => guestCall(() => exports.probe.trap()),
  /** The guest's own answer: its linear memory size in 64 KiB pages. */
  memoryPages: () => guestCall(() => exports.probe.memoryPages()),
  /** Current size of the guest's linear memory in bytes, read by the host. */
  memoryBytes: () => coreInstance.exports.memory.buffer.byteLength,
  /** Instances made so far in this process: a retired instance is replaced. */
  instances: () => instances,
});

// The raw path: glue written by hand against `WebAssembly`, following
// guest/raw/ABI.md (version 7). Per call: allocate the text buffer in the
// guest, encode into it (or copy a binary payload into it, for the `_bytes`
// exports), call, read the 12-byte result record, COPY the
// payload out, free the record. Every memory access takes a fresh view of
// `memory.buffer`, because any guest call may grow (and so detach) it.
//
// Runtime-agnostic: no Node API here. The module comes from the entry point:
// qrglue/raw reads RAW_WASM_URL with readFileSync, the page in hosts/web
// compiles it with WebAssembly.compileStreaming; either calls initRaw(wasm).
import {
  QrError, GuestTrapError, checkCount, checkInput, checkText, dataUrlHelpers, matrixFromPayload, resolveOptions,
  resolveSvgOptions, resolveTextOptions, svgFlags, symbolFlags, utf8Length,
} from './common.js';

/**
 * guest/raw/ABI.md's version, result record size and status codes (index =
 * code; 0 is ok). The `symbol_flags` bits are common.js's SYMBOL_FLAGS, the
 * `svg_flags` bits its SVG_FLAGS.
 */
export const ABI_VERSION = 7;
export const RECORD_BYTES = 12;
export const STATUS_KINDS = Object.freeze([null, 'empty-text', 'invalid-text', 'data-too-long', 'invalid-options']);

/** Where the build puts the raw module (`just build-node` copies it there). */
export const RAW_WASM_URL = new URL('../wasm/qrglue.raw.wasm', import.meta.url);

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

let module = null; // compiled once; a fresh instance after a trap only instantiates
let guest; // the instance's exports
let spent = false; // the instance failed with something not in the contract: replace it
let instances = 0; // instances made so far (tests: a retired one is replaced)

/**
 * Instantiates the guest from `wasm` (a WebAssembly.Module, or the bytes of
 * RAW_WASM_URL), synchronously. Call once before any other export; later
 * calls do nothing.
 */
export function initRaw(wasm) {
  if (module !== null) return;
  const compiled = wasm instanceof WebAssembly.Module ? wasm : new WebAssembly.Module(wasm);
  module = compiled;
  try {
    freshInstance();
  } catch (error) {
    module = null; // a module this glue cannot use: say so again on the next init
    guest = undefined;
    throw error;
  }
}

function freshInstance() {
  const fresh = new WebAssembly.Instance(module, {}).exports;
  const version = fresh.qr_abi_version();
  if (version !== ABI_VERSION) {
    throw new Error(`qrglue raw: guest ABI version ${version}, this glue speaks ${ABI_VERSION}`);
  }
  guest = fresh;
  spent = false;
  instances += 1;
}

// The guest's exports, once initRaw has run.
function exportsOf() {
  if (guest === undefined) {
    throw new Error('qrglue raw: initRaw(wasm) must run before the first call (qrglue/raw does it on import)');
  }
  return guest;
}

// Runs one guest call. A QrError is the contract's answer (the record was
// read and freed). Any other failure (a trap, a RangeError from stack
// exhaustion, a failed allocation) may have stopped the guest half-way, its
// stack pointer and allocator wherever they were: the instance is retired
// and the next call instantiates a fresh one first, as the Rust host does.
function guestCall(call) {
  exportsOf();
  if (spent) freshInstance();
  try {
    return call();
  } catch (error) {
    if (error instanceof QrError) throw error;
    spent = true;
    if (error instanceof WebAssembly.RuntimeError) {
      throw new GuestTrapError('raw', error);
    }
    throw error;
  }
}

// Copies `bytes` (Uint8Array) or the UTF-8 of a well-formed string into a fresh
// guest buffer; returns [ptr, len]. The empty input is (0, 0), no allocation.
// The callee takes ownership of the buffer (ABI.md, memory ownership 1).
function lowerBytes(bytes) {
  if (bytes.length === 0) return [0, 0];
  const ptr = allocate(bytes.length);
  new Uint8Array(guest.memory.buffer, ptr, bytes.length).set(bytes);
  return [ptr, bytes.length];
}

function lowerText(text) {
  if (text.length === 0) return [0, 0];
  const len = utf8Length(text);
  const ptr = allocate(len);
  const { read, written } = utf8Encoder.encodeInto(text, new Uint8Array(guest.memory.buffer, ptr, len));
  if (read !== text.length || written !== len) {
    throw new Error(`qrglue raw: encoded ${written} of ${len} bytes`); // checkText rules this out
  }
  return [ptr, len];
}

function allocate(len) {
  const ptr = guest.qr_alloc(len) >>> 0;
  if (ptr === 0) {
    throw new RangeError(`qrglue raw: the guest could not allocate ${len} bytes`);
  }
  return ptr;
}

// Reads the result record at `record`, copies its payload, frees the record.
// Returns the payload bytes, or throws QrError for a non-zero status.
function liftResult(record) {
  const view = new DataView(guest.memory.buffer, record >>> 0, RECORD_BYTES);
  const status = view.getUint32(0, true);
  const payloadPtr = view.getUint32(4, true);
  const payloadLen = view.getUint32(8, true);
  // slice() copies: the record's memory is freed and reused right below.
  const payload = payloadLen === 0
    ? new Uint8Array(0)
    : new Uint8Array(guest.memory.buffer, payloadPtr, payloadLen).slice();
  guest.qr_free(record);
  if (status === 0) return payload;
  const kind = STATUS_KINDS[status];
  if (kind === undefined) {
    throw new Error(`qrglue raw: unknown status ${status} from the guest`);
  }
  throw new QrError(kind, utf8Decoder.decode(payload));
}

// The `_bytes` twin of each generating export (ABI version 5): the same
// arguments, the buffer a binary payload (no UTF-8 check).
const BYTES_TWINS = Object.freeze({
  qr_png: 'qr_png_bytes', qr_svg: 'qr_svg_bytes', qr_matrix: 'qr_matrix_bytes', qr_text: 'qr_text_bytes',
});

// Input (a text, or a payload as a plain Uint8Array: common.js checkInput)
// in, result record out: the shape of qr_png, qr_svg, qr_matrix, qr_text
// (a text) or their `_bytes` twins (a payload), and qr_png_repeat (a text).
// The export is named, not passed: it is looked up on `guest` inside the
// call, after guestCall may have replaced a retired instance (an export of
// the old one would run on the old memory with pointers into the new).
function callWithInput(exportName, input, options, ...extra) {
  const data = checkInput(input);
  return callResolved(exportName, data, resolveOptions(options, exportName.slice(3)), ...extra);
}

// scale: WIT's option<u32> as (has_scale, scale); colours as 0xRRGGBBAA (an
// i32 argument takes the u32's bits); the symbol options as one word of
// flags, then version, min_version and mask (0 where the flag says none).
// A text is encoded into its guest buffer; a payload's bytes are copied
// into it as they are, once.
function callResolved(exportName, data, resolved, ...extra) {
  const words = optionWords(resolved);
  const isText = typeof data === 'string';
  const name = isText ? exportName : BYTES_TWINS[exportName];
  return guestCall(() => {
    const [ptr, len] = isText ? lowerText(data) : lowerBytes(data);
    // A function lowers its arguments into guest memory after the input (qr_svg's strings).
    const tail = typeof extra[0] === 'function' ? extra[0]() : extra;
    return liftResult(guest[name](ptr, len, ...words, ...tail));
  });
}

/**
 * The eleven option words every generating export takes after (ptr, len),
 * in ABI.md's order: ec_level, min_size, quiet_zone, has_scale, scale, dark,
 * light, symbol_flags, version, min_version, mask. Shared with the Extism
 * path (hosts/node/extism), whose input starts with the same words.
 */
export function optionWords(resolved) {
  const { ecIndex, minSize, quietZone, scale, dark, light, version, minVersion, mask } = resolved;
  return [ecIndex, minSize, quietZone, scale === undefined ? 0 : 1, scale ?? 0, dark, light,
    symbolFlags(resolved), version ?? 0, minVersion ?? 0, mask ?? 0];
}

export function png(input, options) {
  return callWithInput('qr_png', input, options);
}

// The SVG options (ABI version 6) as the four last arguments: svg_flags,
// title_len, strings_ptr, strings_len. Both strings go in one guest buffer,
// the title's UTF-8 then the class's ((0, 0) when both are empty or absent),
// which the guest owns from the call on. Run inside the guest call, after
// the input's buffer is lowered (common.js has checked both strings: well
// formed, within their bounds).
function lowerSvg(svg) {
  const title = svg.title ?? '';
  const className = svg.class ?? '';
  const titleLen = utf8Length(title);
  const [ptr, len] = lowerText(title + className);
  return [svgFlags(svg), titleLen, ptr, len];
}

export function svg(input, options) {
  const data = checkInput(input);
  const resolved = resolveSvgOptions(options);
  // fatal decoder: the guest promises UTF-8; anything else is a bug to surface.
  return utf8Decoder.decode(callResolved('qr_svg', data, resolved, () => lowerSvg(resolved.svg)));
}

export function matrix(input, options) {
  return matrixFromPayload(callWithInput('qr_matrix', input, options));
}

export function text(input, options) {
  const data = checkInput(input);
  const resolved = resolveTextOptions(options);
  return utf8Decoder.decode(callResolved('qr_text', data, resolved, resolved.styleIndex));
}

export const { pngDataUrl, svgDataUrl } = dataUrlHelpers(png, svg);

/** Probes of the raw path (for benchmarks and tests, not for users). */
export const probe = Object.freeze({
  path: 'raw',
  noop: () => guestCall(() => guest.qr_noop()),
  consume(data) {
    return guestCall(() => {
      const [ptr, len] = lowerBytes(data);
      return guest.qr_consume(ptr, len) >>> 0;
    });
  },
  produce(len) {
    checkCount('len', len);
    return guestCall(() => liftResult(guest.qr_produce(len)));
  },
  pngRepeat(text, options, times) {
    checkCount('times', times);
    checkText(text);
    const payload = callResolved('qr_png_repeat', text, resolveOptions(options, 'pngRepeat'), times);
    return new DataView(payload.buffer).getUint32(0, true);
  },
  trap: () => guestCall(() => guest.qr_trap()),
  /** The guest's own answer: its linear memory size in 64 KiB pages. */
  memoryPages: () => guestCall(() => guest.qr_memory_pages() >>> 0),
  /** Current size of the guest's linear memory in bytes, read by the host. */
  memoryBytes: () => exportsOf().memory.buffer.byteLength,
  /** Instances made so far in this process: a retired instance is replaced. */
  instances: () => instances,
});

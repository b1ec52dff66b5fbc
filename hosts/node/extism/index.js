// qrglue's Extism path on Node: guest/extism (qrglue.extism.wasm) through
// Extism's JS SDK (@extism/extism, on V8's WebAssembly, in this thread).
// The same options, outputs and errors as qrglue/raw; the input of each
// call is the raw ABI's option words (lib/raw.js optionWords, the lowering
// the raw glue uses) ahead of the payload, and a contract error comes back
// as Extism's "<kind>: <message>" (guest/extism/README.md).
//
// Asynchronous, as the SDK is (createPlugin and plugin.call return
// promises): every function here returns a promise. A package of its own
// (private, not in qrglue's npm package), so qrglue does not depend on Extism.
import { readFileSync } from 'node:fs';
import createPlugin from '@extism/extism';
import {
  ERROR_KINDS, QrError, GuestTrapError, checkCount, checkInput, checkText, matrixFromPayload, resolveOptions,
  resolveSvgOptions, resolveTextOptions, svgFlags, utf8Length,
} from '../lib/common.js';
import { optionWords } from '../lib/raw.js';

export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES } from '../lib/common.js';

/** The plug-in, as `just build-wasm` writes it. */
export const EXTISM_WASM_URL = new URL('../../../target/wasm/qrglue.extism.wasm', import.meta.url);

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// What the SDK puts before the plug-in's error message (dist/esm/mod.js).
const PLUGIN_ERROR = 'Plugin-originated error: ';

let wasm = null; // the plug-in's bytes, read once
let plugin = null; // the live instance; null after a failure outside the contract
let instances = 0;
let queue = Promise.resolve(); // one call at a time on the instance

/** Reads the plug-in and instantiates it (the first call does it too). */
export async function init() {
  wasm ??= readFileSync(EXTISM_WASM_URL);
  if (plugin === null) {
    plugin = await createPlugin({ wasm: [{ data: wasm }], memory: { maxPages: 1024 } }, { useWasi: false });
    instances += 1;
  }
  return plugin;
}

// One call on the plug-in, after the ones before it: its output as a
// Uint8Array, or its contract error as a QrError. Any other failure retires
// the instance (the next call makes a fresh one), as the raw path does.
function call(name, input) {
  const run = async () => {
    const live = await init();
    let output;
    try {
      output = await live.call(name, input);
    } catch (error) {
      const message = String(error?.message ?? '');
      if (message.startsWith(PLUGIN_ERROR)) {
        const detail = message.slice(PLUGIN_ERROR.length);
        const colon = detail.indexOf(': ');
        const kind = detail.slice(0, colon);
        if (colon > 0 && ERROR_KINDS.includes(kind)) throw new QrError(kind, detail.slice(colon + 2));
      }
      plugin = null;
      await live.close();
      throw new GuestTrapError('extism', error);
    }
    // A call whose export sets no output (qr_noop) gives null.
    return output === null ? new Uint8Array(0) : new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
  };
  const result = queue.then(run);
  queue = result.catch(() => {});
  return result;
}

// The input: u32 words, little-endian, then each part's bytes (a string as UTF-8).
function encode(words, ...parts) {
  const bytes = parts.map((part) => (typeof part === 'string' ? utf8Encoder.encode(part) : part));
  const input = new Uint8Array(4 * words.length + bytes.reduce((n, b) => n + b.length, 0));
  const view = new DataView(input.buffer);
  words.forEach((word, i) => view.setUint32(4 * i, word >>> 0, true));
  let at = 4 * words.length;
  for (const b of bytes) {
    input.set(b, at);
    at += b.length;
  }
  return input;
}

// The text export or its _bytes twin.
const exportFor = (name, data) => (typeof data === 'string' ? name : `${name}_bytes`);

export async function png(input, options) {
  const data = checkInput(input);
  const resolved = resolveOptions(options, 'png');
  return call(exportFor('qr_png', data), encode(optionWords(resolved), data));
}

export async function svg(input, options) {
  const data = checkInput(input);
  const resolved = resolveSvgOptions(options);
  const title = resolved.svg.title ?? '';
  const strings = utf8Encoder.encode(title + (resolved.svg.class ?? ''));
  const words = [...optionWords(resolved), svgFlags(resolved.svg), utf8Length(title), strings.length];
  return utf8Decoder.decode(await call(exportFor('qr_svg', data), encode(words, strings, data)));
}

export async function matrix(input, options) {
  const data = checkInput(input);
  const resolved = resolveOptions(options, 'matrix');
  return matrixFromPayload(await call(exportFor('qr_matrix', data), encode(optionWords(resolved), data)));
}

export async function text(input, options) {
  const data = checkInput(input);
  const resolved = resolveTextOptions(options);
  const words = [...optionWords(resolved), resolved.styleIndex];
  return utf8Decoder.decode(await call(exportFor('qr_text', data), encode(words, data)));
}

/** Probes of the Extism path (benchmarks and tests). */
export const probe = Object.freeze({
  path: 'extism',
  noop: async () => { await call('qr_noop', new Uint8Array(0)); },
  async consume(data) {
    const out = await call('qr_consume', data);
    return new DataView(out.buffer, out.byteOffset, 4).getUint32(0, true);
  },
  produce(len) {
    checkCount('len', len);
    return call('qr_produce', encode([len]));
  },
  async pngRepeat(input, options, times) {
    checkCount('times', times);
    checkText(input);
    const resolved = resolveOptions(options, 'pngRepeat');
    const out = await call('qr_png_repeat', encode([...optionWords(resolved), times], input));
    return new DataView(out.buffer, out.byteOffset, 4).getUint32(0, true);
  },
  /** Instances made so far in this process: a retired instance is replaced. */
  instances: () => instances,
});

// What every path shares: the error type, the defaults, and the host-side checks
// that must run before a text is handed to the guest. The guest checks the rest
// (empty text, option ranges, whether the text fits), so the bounds live in one
// place: guest/core.
//
// Runtime-agnostic, like lib/component.js, lib/raw.js and lib/bindgen.js: no
// Node API (no Buffer, no node:fs), so the page in hosts/web imports the same
// files. Only the package's entry points (index.js, raw.js, bindgen.js) read
// the .wasm files from disk.

// The contract's names, defaults, bounds, messages and raw flag bits, and the
// resolver's table: generated from guest/core/src/contract.rs (lib/options.js,
// `just contract`), so no option is restated here.
import {
  DEFAULTS, EC_LEVELS, MAX_SVG_CLASS_BYTES, MAX_SVG_TITLE_BYTES, MAX_TEXT_BYTES, MESSAGES, OPTION_FIELDS,
  SVG_OPTION_FIELDS, TEXT_STYLES, TEXT_STYLE_OPTION, callFlat, defaultResolved, isAutoSymbol, witSymbol,
} from './options.js';

export {
  DEFAULTS, EC_LEVELS, ERROR_KINDS, MAX_PNG_REPEAT_TIMES, MAX_SVG_CLASS_BYTES, MAX_SVG_TITLE_BYTES, MAX_TEXT_BYTES, MESSAGES,
  SVG_FLAGS, SYMBOL_FLAGS, TEXT_STYLES, callFlat, isAutoSymbol, svgFlags, symbolFlags,
} from './options.js';

/**
 * The message of a boolean option (lib/options.js's 'bool' fields) that is not a
 * boolean: the hosts' own wording (Node and Python alike; the guest takes
 * booleans and never sees such a value), so not in the contract.
 */
export const BOOLEAN_MESSAGE = '{option} must be a boolean, got {value}';

/** The message of an SVG `title` or `class` that is not a string (the hosts' own wording, like BOOLEAN_MESSAGE). */
export const STRING_MESSAGE = '{option} must be a string, got {value}';
// The messages the host says itself: empty-text's (the WIT case has no payload)
// and data-too-long's for a text over MAX_TEXT_BYTES, refused before it is copied
// into a guest. Any other data-too-long is the guest's, naming the limit hit.
const FIXED_MESSAGES = { 'empty-text': MESSAGES['empty-text'], 'data-too-long': MESSAGES['data-too-long'] };

/** Why no code was produced. `kind` is the WIT case name. */
export class QrError extends Error {
  /**
   * @param {'empty-text'|'invalid-text'|'data-too-long'|'invalid-options'} kind
   * @param {string} [detail] the guest's message (cases with a payload); without
   *   one, the host's own (empty-text, data-too-long over MAX_TEXT_BYTES)
   */
  constructor(kind, detail) {
    super(detail ?? FIXED_MESSAGES[kind] ?? kind);
    this.name = 'QrError';
    this.kind = kind;
  }
}

/**
 * The guest trapped (a bug in the guest, or the `trap` probe). The instance that
 * trapped has been replaced by a fresh one, so the next call works.
 */
export class GuestTrapError extends Error {
  constructor(path, cause) {
    super(`qrglue (${path} path): the wasm guest trapped (${cause?.message ?? cause}); ` +
      'a fresh instance replaces it for the next call', { cause });
    this.name = 'GuestTrapError';
  }
}

/**
 * The checks only the host can make, in the contract's order:
 * invalid-text (a lone surrogate would be silently replaced by TextEncoder),
 * then data-too-long by length, so an oversized text is never copied into
 * guest memory. Empty text and the exact fit are left to the guest.
 */
export function checkText(text) {
  if (typeof text !== 'string') {
    throw new TypeError(`qrglue: text must be a string, got ${typeof text}`);
  }
  if (!text.isWellFormed()) {
    throw new QrError('invalid-text', MESSAGES['lone-surrogate']);
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes, and at least 1: measure only when
  // the length alone does not decide.
  if (text.length * 3 > MAX_TEXT_BYTES &&
      (text.length > MAX_TEXT_BYTES || utf8Length(text) > MAX_TEXT_BYTES)) {
    throw new QrError('data-too-long');
  }
}

/**
 * What a generator takes: a text (a string, checked by checkText) or a binary
 * payload (the WIT `*-bytes` calls): a Uint8Array (Node's buffers are Uint8Arrays), an
 * ArrayBuffer or a DataView, whose bytes are the payload as they are, never
 * decoded. Returns the string, or a plain Uint8Array over the same memory
 * (no copy: the guest call copies it once, into guest memory). In the
 * contract's order, like checkText: a payload of more than MAX_TEXT_BYTES is
 * data-too-long before it is copied anywhere; an empty one is left to the
 * guest (empty-text). Anything else is a TypeError naming what is accepted.
 *
 * The view is built from the intrinsic getters, not from the object's own
 * `length`, `buffer` or `byteOffset` (a subclass or an own property could
 * lie about them, and the glue reads them), so what is checked is what is
 * copied; the tag is read the same way, so a Uint8Array from another realm
 * (a worker, a vm context) is one too.
 */
export function checkInput(input) {
  if (typeof input === 'string') {
    checkText(input);
    return input;
  }
  const bytes = bytesView(input);
  if (bytes === null) {
    throw new TypeError(`qrglue: the input must be a string (a text) or bytes (a Uint8Array, an ArrayBuffer or a DataView), got ${typeName(input)}`);
  }
  if (bytes.length > MAX_TEXT_BYTES) {
    throw new QrError('data-too-long');
  }
  return bytes;
}

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
const typedArrayTag = intrinsic(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayBuffer = intrinsic(TypedArrayPrototype, 'buffer');
const typedArrayOffset = intrinsic(TypedArrayPrototype, 'byteOffset');
const typedArrayLength = intrinsic(TypedArrayPrototype, 'byteLength');
const dataViewBuffer = intrinsic(DataView.prototype, 'buffer');
const dataViewOffset = intrinsic(DataView.prototype, 'byteOffset');
const dataViewLength = intrinsic(DataView.prototype, 'byteLength');
const arrayBufferLength = intrinsic(ArrayBuffer.prototype, 'byteLength');
// ArrayBuffer.prototype.detached is Node 22+; before it, a detached buffer is one whose length reads 0.
const detachedGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')?.get;
function arrayBufferDetached(buffer) {
  try {
    return detachedGetter ? detachedGetter.call(buffer) : arrayBufferLength.call(buffer) === 0;
  } catch {
    return false; // a SharedArrayBuffer: never detached
  }
}

// A plain Uint8Array over the bytes of a Uint8Array, a DataView or an
// ArrayBuffer (a detached one is empty); null for anything else, other typed
// arrays included (their elements are not bytes).
function bytesView(value) {
  let buffer;
  let offset = 0;
  let length;
  if (ArrayBuffer.isView(value)) {
    const tag = typedArrayTag.call(value);
    if (tag === 'Uint8Array') {
      [buffer, offset, length] = [typedArrayBuffer.call(value), typedArrayOffset.call(value), typedArrayLength.call(value)];
    } else if (tag === undefined) { // not a typed array: a DataView
      buffer = dataViewBuffer.call(value);
      // Unlike a typed array's, a DataView's byteLength throws once its buffer is detached.
      length = arrayBufferDetached(buffer) ? 0 : dataViewLength.call(value);
      offset = length === 0 ? 0 : dataViewOffset.call(value);
    } else {
      return null;
    }
  } else {
    try {
      length = arrayBufferLength.call(value); // throws for anything but an ArrayBuffer
    } catch {
      return null;
    }
    buffer = value;
  }
  // A detached buffer has no bytes, and no view can be made over it.
  return length === 0 ? new Uint8Array(0) : new Uint8Array(buffer, offset, length);
}

// The type a TypeError names: typeof for primitives, the class for objects ("Array", "Uint16Array").
function typeName(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return Object.prototype.toString.call(value).slice(8, -1);
}

/**
 * The number of bytes TextEncoder makes of a well-formed string (checkText
 * first), counted without encoding it: 1 byte below U+0080, 2 below U+0800,
 * 4 for a surrogate pair (two units), 3 for any other unit.
 */
export function utf8Length(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 2; // a pair: 2 units, 4 bytes
      i++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

// The options png, svg and matrix take, in check order (lib/options.js's
// table); text takes `style` too, svg its own three.
const OPTION_NAMES = Object.freeze(OPTION_FIELDS.map((field) => field.name));
const TEXT_OPTION_NAMES = Object.freeze([...OPTION_NAMES, TEXT_STYLE_OPTION]);
const SVG_OPTION_NAMES = Object.freeze([...OPTION_NAMES, ...SVG_OPTION_FIELDS.map((field) => field.name)]);

/** Resolved options when the user gives none. */
const DEFAULT_RESOLVED = Object.freeze(defaultResolved());

/**
 * User options -> resolved options (lib/options.js defaultResolved's shape:
 * every field of OPTION_FIELDS by its JS name, `ecIndex` the level's index,
 * the colours as `0xRRGGBBAA` numbers, the raw ABI's encoding; a number left
 * out stays undefined, WIT's none).
 *
 * Checks only what the WIT values cannot carry (docs/contract.md, "Which
 * errors a host raises"): an unknown name, a value of the wrong type, a
 * number that is not an integer or is outside u32 (jco would wrap 2**32+1 to
 * 1 with `>>> 0`), an ec-level name that is no WIT case, a colour that is no
 * CSS hex colour, a boolean that is not true or false. Every such error is
 * raised here, before the guest is called, so before the guest's own checks
 * (empty text, the ranges, the same colours, the symbol options'
 * combinations), which stay the guest's alone. An integer outside u32 is
 * refused with the contract's bounds, as the guest words any integer out of
 * range. An unknown option names `caller`, the public function it was given
 * to, and the options it knows. Call after checkInput.
 */
export function resolveOptions(options, caller = 'png', names = OPTION_NAMES) {
  if (options === undefined || options === null) {
    return DEFAULT_RESOLVED;
  }
  const refuse = (problem) => {
    throw new QrError('invalid-options', problem);
  };
  if (typeof options !== 'object') {
    refuse(`options must be an object, got ${typeof options}`);
  }
  for (const name in options) {
    if (!names.includes(name)) {
      refuse(`unknown option ${JSON.stringify(name)} for ${caller}() (known: ${names.join(', ')})`);
    }
  }
  const resolved = defaultResolved();
  for (const field of OPTION_FIELDS) {
    const value = options[field.name];
    if (value === undefined) continue;
    const fill = (template) => template.replace('{option}', field.wit).replace('{value}', () => describe(value));
    switch (field.type) {
      case 'ec-level': {
        const ecIndex = EC_LEVELS.indexOf(value);
        // A function, not a string: a replacement string would expand $& in the value.
        if (ecIndex === -1) refuse(MESSAGES['ec-level-name'].replace('{value}', () => describe(value)));
        resolved.ecIndex = ecIndex;
        break;
      }
      case 'u32':
      case 'option-u32':
        if (!isU32(value)) {
          const [min, max] = (options.micro === true && field.microBounds) || field.bounds;
          // An integer outside u32 with the contract's bounds, as the guest words any integer out of range.
          refuse(Number.isInteger(value)
            ? MESSAGES['out-of-range'].replace('{option}', field.wit).replace('{min}', min).replace('{max}', max)
              .replace('{value}', String(value))
            : fill(MESSAGES['not-integer']));
        }
        break;
      case 'rgba': {
        const rgba = parseColor(value);
        if (rgba === null) refuse(fill(MESSAGES.color));
        resolved[field.name] = rgba;
        continue;
      }
      case 'bool':
        if (value !== true && value !== false) refuse(fill(BOOLEAN_MESSAGE));
        break;
      default:
        throw new Error(`qrglue: no resolver for option type ${field.type}`);
    }
    resolved[field.name] = value;
  }
  return resolved;
}

/**
 * Resolved options as the WIT `options` record in jco's shape: the colours
 * as `rgba` records, `scale` undefined for none, and `symbol` undefined
 * (none) for the automatic symbol, else the `symbol-options` record.
 */
export function witRecord(resolved) {
  const { ecLevel, minSize, quietZone, scale, dark, light } = resolved;
  const symbol = isAutoSymbol(resolved) ? undefined : witSymbol(resolved);
  return { ecLevel, minSize, quietZone, scale, dark: rgbaRecord(dark), light: rgbaRecord(light), symbol };
}

/**
 * A CSS hex colour (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, either case, as
 * guest/core's Rgba::from_hex reads it) as `0xRRGGBBAA`; anything else, a
 * non-string included, is null.
 */
export function parseColor(value) {
  // No `m` flag: `$` is the end of the string, never before a final newline.
  if (typeof value !== 'string' || !/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value)) {
    return null;
  }
  let digits = value.slice(1);
  if (digits.length <= 4) digits = Array.from(digits, (digit) => digit + digit).join('');
  if (digits.length === 6) digits += 'ff';
  return Number.parseInt(digits, 16);
}

/** `0xRRGGBBAA` as the WIT `rgba` record. */
export function rgbaRecord(color) {
  return { r: color >>> 24, g: (color >>> 16) & 0xff, b: (color >>> 8) & 0xff, a: color & 0xff };
}

/**
 * text()'s options: resolveOptions's, plus `style` and `styleIndex`. A style
 * that is not one of TEXT_STYLES is a value WIT `text-style` cannot carry:
 * refused here, after the other options' host checks (see resolveOptions).
 */
export function resolveTextOptions(options) {
  const resolved = resolveOptions(options, 'text', TEXT_OPTION_NAMES);
  // undefined takes the default; null is a value, refused like an ecLevel of null.
  const style = options?.style === undefined ? DEFAULTS.style : options.style;
  const styleIndex = TEXT_STYLES.indexOf(style);
  if (styleIndex === -1) {
    throw new QrError('invalid-options', MESSAGES['text-style-name'].replace('{value}', () => describe(style)));
  }
  return { ...resolved, style, styleIndex };
}

/** Resolved SVG options when the user gives none: WIT `svg-options` at its defaults. */
const DEFAULT_SVG = Object.freeze({ viewBoxOnly: false, title: undefined, class: undefined });

/**
 * svg()'s options: resolveOptions's, plus `svg`, the WIT `svg-options` record
 * in jco's shape (`{ viewBoxOnly, title, class }`, the strings undefined for
 * none). What the strings hold is the guest's to check (SvgOptions::validate);
 * the host refuses, after the other options' host checks, only what it cannot
 * pass on (svgBoundaryProblem).
 */
export function resolveSvgOptions(options) {
  const resolved = resolveOptions(options, 'svg', SVG_OPTION_NAMES);
  if (options === undefined || options === null) return { ...resolved, svg: DEFAULT_SVG };
  const { viewBoxOnly = false, title, class: className } = options;
  const svg = { viewBoxOnly, title, class: className };
  if (svg.viewBoxOnly === false && title === undefined && className === undefined) return { ...resolved, svg: DEFAULT_SVG };
  const problem = svgBoundaryProblem(svg);
  if (problem !== null) throw new QrError('invalid-options', problem);
  return { ...resolved, svg };
}

/**
 * The first problem of SVG options `{ viewBoxOnly, title, class }` that the
 * host raises itself, in record order (view-box-only, title, class): a value
 * that is not a boolean or a string, a string with a lone surrogate (the
 * glues' TextEncoder would replace it with U+FFFD: a different title), a
 * string over its bound in UTF-8 bytes (never copied into guest memory: a
 * 100 MB title would exhaust it; the guest words it the same). null when the
 * guest can be asked.
 */
export function svgBoundaryProblem({ viewBoxOnly = false, title, class: className }) {
  if (viewBoxOnly !== true && viewBoxOnly !== false) {
    return BOOLEAN_MESSAGE.replace('{option}', 'view-box-only').replace('{value}', () => describe(viewBoxOnly));
  }
  for (const [name, value, max] of [['title', title, MAX_SVG_TITLE_BYTES], ['class', className, MAX_SVG_CLASS_BYTES]]) {
    if (value === undefined) continue;
    if (typeof value !== 'string') return STRING_MESSAGE.replace('{option}', name).replace('{value}', () => describe(value));
    if (!value.isWellFormed()) return MESSAGES['option-lone-surrogate'].replace('{option}', name);
    if (value.length > max || (value.length * 3 > max && utf8Length(value) > max)) {
      return MESSAGES['too-long'].replace('{option}', name).replace('{max}', max).replace('{value}', utf8Length(value));
    }
  }
  return null;
}

/**
 * png, svg, matrix, text and the pngRepeat probe over exports that take the
 * options flat: guest/bindgen's wasm-bindgen exports (lib/bindgen.js) and the
 * native addon's (lib/native.js), which share their names, argument order and
 * types. One implementation for both adapters: each passes its exports and
 * `call`, which runs one export call and maps its errors as that path does.
 *
 * The input and options are checked and resolved as on every path (checkInput
 * first), then passed flat: the EC level as its WIT index; scale, version,
 * minVersion, mask a number or undefined (WIT's none); colours as 0xRRGGBBAA;
 * the flags booleans (lib/options.js callFlat); then the output's own arguments (svg's
 * viewBoxOnly, title and class; text's style index). A text goes to the text
 * export, a payload (a plain Uint8Array, checkInput) to its `*Bytes` twin.
 */
export function flatGenerators(exports, call) {
  // Taken once: neither the glue's nor the addon's exports are ever replaced.
  const { png, pngBytes, svg, svgBytes, matrix, matrixBytes, text, textBytes, pngRepeat } = exports;

  function callResolved(exportFn, data, resolved, ...extra) {
    return call(() => callFlat(exportFn, data, resolved, ...extra));
  }

  return Object.freeze({
    png(input, options) {
      const data = checkInput(input);
      return callResolved(typeof data === 'string' ? png : pngBytes, data, resolveOptions(options, 'png'));
    },
    svg(input, options) {
      const data = checkInput(input);
      const resolved = resolveSvgOptions(options);
      const { viewBoxOnly, title, class: className } = resolved.svg;
      return callResolved(typeof data === 'string' ? svg : svgBytes, data, resolved, viewBoxOnly, title, className);
    },
    matrix(input, options) {
      const data = checkInput(input);
      // One array out: the width as a little-endian u32, then the packed modules.
      return matrixFromPayload(
        callResolved(typeof data === 'string' ? matrix : matrixBytes, data, resolveOptions(options, 'matrix')));
    },
    text(input, options) {
      const data = checkInput(input);
      const resolved = resolveTextOptions(options);
      return callResolved(typeof data === 'string' ? text : textBytes, data, resolved, resolved.styleIndex);
    },
    // The probe: a text only, `times` a u32.
    pngRepeat(input, options, times) {
      checkCount('times', times);
      checkText(input);
      return callResolved(pngRepeat, input, resolveOptions(options, 'pngRepeat'), times);
    },
  });
}

/**
 * pngDataUrl and svgDataUrl over a path's png and svg: the image as a
 * `data:` URL (node-qrcode's toDataURL), for an `<img src>` or CSS. The
 * bytes are base64 exactly as png() and svg() give them (the SVG as UTF-8).
 */
export function dataUrlHelpers(png, svg) {
  return Object.freeze({
    pngDataUrl: (text, options) => `data:image/png;base64,${encodeBase64(png(text, options))}`,
    svgDataUrl: (text, options) => `data:image/svg+xml;base64,${encodeBase64(utf8Encoder.encode(svg(text, options)))}`,
  });
}

const utf8Encoder = new TextEncoder();

// The data URLs' base64: btoa over a binary string here, where the page runs
// too (no Buffer; Uint8Array.toBase64 is newer than Node 20 and than some
// browsers). Node's entry points swap in Buffer's encoder (lib/node-base64.js):
// native code, ~50 times as fast on a png.
let encodeBase64 = base64InChunks;

/** Sets the data URLs' base64 encoder (Uint8Array -> string); for lib/node-base64.js. */
export function useBase64(encoder) {
  encodeBase64 = encoder;
}

/** btoa over a binary string, built in chunks so that no call spreads a whole image. */
export function base64InChunks(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * A probe's count (`times`, `len`) as an integer within u32, checked here:
 * wasm, jco and N-API would all wrap 2**32 + 1 to 1 (and -1 to 2**32 - 1)
 * without a word.
 */
export function checkCount(name, value) {
  if (!isU32(value)) {
    throw new TypeError(`qrglue: ${name} must be an integer within 0..=4294967295, got ${describe(value)}`);
  }
  return value;
}

function isU32(value) {
  return Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff;
}

function describe(value) {
  return typeof value === 'string' ? JSON.stringify(value) : `${String(value)} (${typeof value})`;
}

/**
 * The module matrix as every path returns it: a frozen `{ width, modules }`,
 * `modules` packed as the WIT `qr-matrix` (row-major, most significant bit
 * first). Frozen so that a matrix handed around stays one code.
 */
export function qrMatrix(width, modules) {
  return Object.freeze({ width, modules });
}

/**
 * The matrix from the bytes the raw ABI, the wasm-bindgen guest and the
 * native addon return for it: the width as a little-endian u32, then the
 * packed modules (one copy out of the guest, split here). The modules are
 * copied once more into an array of their own, so that `modules.buffer`
 * holds the modules alone (under 4 KB).
 */
export function matrixFromPayload(payload) {
  const width = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(0, true);
  return qrMatrix(width, payload.slice(4));
}

/**
 * Whether the module at column `x`, row `y` (0-based, quiet zone not
 * included) of `matrix` (from matrix()) is dark. A coordinate outside the
 * matrix is a RangeError: the quiet zone is the caller's to draw.
 */
export function isDark(matrix, x, y) {
  const { width, modules } = matrix;
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= width || y >= width) {
    throw new RangeError(`qrglue: module (${x}, ${y}) is outside a ${width}x${width} matrix`);
  }
  const i = y * width + x;
  return ((modules[i >> 3] >> (7 - (i & 7))) & 1) === 1;
}

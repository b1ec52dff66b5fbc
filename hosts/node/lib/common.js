// What every path shares: the error type, the defaults, and the host-side checks
// that must run before a text is handed to the guest. The guest checks the rest
// (empty text, option ranges, whether the text fits), so the bounds live in one
// place: guest/core.
//
// Runtime-agnostic, like lib/component.js, lib/raw.js and lib/bindgen.js: no
// Node API (no Buffer, no node:fs), so the page in hosts/web imports the same
// files. Only the package's entry points (index.js, raw.js, bindgen.js) read
// the .wasm files from disk.

/**
 * Defaults for every option (WIT has none; every host uses these). `scale`
 * undefined is no scale (min-size sizes the image); the colours are CSS hex
 * strings, as the options take them. The symbol options (WIT
 * `symbol-options`: micro, version, minVersion, mask, boostEc, eci) default to the
 * automatic symbol: a normal QR code, the smallest version that holds the
 * text, the best mask, the EC level as given. `style` is text()'s own option;
 * the other outputs do not take it. The SVG options (WIT `svg-options`:
 * viewBoxOnly, title, class) are svg()'s and svgDataUrl()'s own: the
 * document every earlier version wrote (width and height, no title, no
 * class).
 */
export const DEFAULTS = Object.freeze({
  ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined, dark: '#000000ff', light: '#ffffffff',
  micro: false, version: undefined, minVersion: undefined, mask: undefined, boostEc: false, eci: false, style: 'half-blocks',
  viewBoxOnly: false, title: undefined, class: undefined,
});

/** Error-correction levels in WIT order; the index is the raw ABI's encoding. */
export const EC_LEVELS = Object.freeze(['low', 'medium', 'quartile', 'high']);

/** text()'s styles in WIT `text-style` order; the index is the raw ABI's encoding. */
export const TEXT_STYLES = Object.freeze(['half-blocks', 'half-blocks-inverted', 'ascii']);

/** No QR code holds more than 7089 UTF-8 bytes (guest/core MAX_TEXT_BYTES). */
export const MAX_TEXT_BYTES = 7089;

/** The most renders one pngRepeat probe call may ask for (guest/core MAX_PNG_REPEAT_TIMES). */
export const MAX_PNG_REPEAT_TIMES = 50;

/** The WIT `qr-error` cases, in the order the contract checks them. */
export const ERROR_KINDS = Object.freeze(['invalid-text', 'empty-text', 'data-too-long', 'invalid-options']);

/**
 * The contract's messages this glue gives itself (guest/core/src/contract.rs;
 * test/contract.test.js checks them against target/contract.json): the
 * payload-less kinds, so every path throws identical errors (the raw ABI
 * sends these texts, the component sends no payload), the host's own
 * lone-surrogate check, and the templates of an ec-level, a colour and a
 * text style that the host cannot read.
 */
export const MESSAGES = Object.freeze({
  'empty-text': 'text is empty',
  'data-too-long': 'text does not fit in a QR code at this error-correction level',
  'lone-surrogate': 'text contains a lone surrogate (not encodable as UTF-8)',
  'ec-level-name': 'ec-level must be one of low, medium, quartile, high, got {value}',
  'color': '{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}',
  'text-style-name': 'text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}',
  'too-long': '{option} must be at most {max} UTF-8 bytes, got {value}',
  'not-xml-char': '{option} holds {char} at byte {index}, which XML 1.0 cannot carry',
  'class': 'class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got {value}',
  'option-lone-surrogate': '{option} contains a lone surrogate (not encodable as UTF-8)',
});

/** The SVG strings' bounds in UTF-8 bytes (contract `svg-title-bytes`, `svg-class-bytes`: guest/core MAX_SVG_*_BYTES). */
export const MAX_SVG_TITLE_BYTES = 1024;
export const MAX_SVG_CLASS_BYTES = 256;

/**
 * The message of a symbol option's flag (micro, boost-ec, eci) that is not a
 * boolean: the hosts' own wording (Node and Python alike; the guest takes
 * booleans and never sees such a value), so not in the contract.
 */
export const BOOLEAN_MESSAGE = '{option} must be a boolean, got {value}';

/** The message of an SVG `title` or `class` that is not a string (the hosts' own wording, like BOOLEAN_MESSAGE). */
export const STRING_MESSAGE = '{option} must be a string, got {value}';
const FIXED_MESSAGES = { 'empty-text': MESSAGES['empty-text'], 'data-too-long': MESSAGES['data-too-long'] };

/** Why no code was produced. `kind` is the WIT case name. */
export class QrError extends Error {
  /**
   * @param {'empty-text'|'invalid-text'|'data-too-long'|'invalid-options'} kind
   * @param {string} [detail] the guest's message (cases with a payload)
   */
  constructor(kind, detail) {
    super(FIXED_MESSAGES[kind] ?? detail ?? kind);
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
 * The text the guest's zero-render check (png-repeat zero times, see
 * resolveOptions) runs on for `input` (from checkInput): the text itself, or
 * for a payload a stand-in with the same answer to every check before the
 * options, since no guest call checks bytes without rendering them: '' for
 * the empty payload (empty-text), else one digit (a payload within
 * MAX_TEXT_BYTES passes the payload checks, as a digit does). Encoding comes
 * after the options in the contract's order, so it never decides.
 */
export function validationText(input) {
  if (typeof input === 'string') return input;
  return input.length === 0 ? '' : '0';
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

// The options png, svg and matrix take, in WIT record order (the symbol
// options are the fields of its `symbol` record); text takes `style` too.
const OPTION_NAMES = Object.freeze([
  'ecLevel', 'minSize', 'quietZone', 'scale', 'dark', 'light', 'micro', 'version', 'minVersion', 'mask', 'boostEc', 'eci',
]);
const TEXT_OPTION_NAMES = Object.freeze([...OPTION_NAMES, 'style']);
const SVG_OPTION_NAMES = Object.freeze([...OPTION_NAMES, 'viewBoxOnly', 'title', 'class']);

// Opaque black and white as 0xRRGGBBAA, the defaults' colours.
const BLACK = 0x000000ff;
const WHITE = 0xffffffff;

/** Resolved options when the user gives none. */
const DEFAULT_RESOLVED = Object.freeze({
  ecLevel: DEFAULTS.ecLevel, ecIndex: 0, minSize: DEFAULTS.minSize, quietZone: DEFAULTS.quietZone,
  scale: undefined, dark: BLACK, light: WHITE,
  micro: false, version: undefined, minVersion: undefined, mask: undefined, boostEc: false, eci: false,
});

/**
 * User options -> `{ ecLevel, ecIndex, minSize, quietZone, scale, dark,
 * light, micro, version, minVersion, mask, boostEc, eci }` with defaults filled
 * in, the colours as `0xRRGGBBAA` numbers, the raw ABI's encoding (`scale`,
 * `version`, `minVersion` and `mask` stay undefined when not given). Only
 * checks what the guest cannot see: names, types (u32 numbers: jco would wrap
 * 2**32+1 to 1 with `>>> 0`; booleans: true or false, nothing truthy) and
 * the colours' syntax. The ranges, the same-colour check and the symbol
 * options' own checks (bounds that depend on micro, version with min-version,
 * micro at level high) are the guest's.
 *
 * The contract orders errors: the text's, then the options' in record order
 * (ec-level, min-size, quiet-zone, scale, dark, light, same colours, then the
 * symbol record's fields: micro, version, min-version, both versions given,
 * mask, boost-ec, eci, then micro at level high and last micro with eci). So a problem found here is
 * reported only once `validate(resolved)`, the path's guest call that checks
 * text and options and renders nothing (png-repeat zero times), has found
 * the text and every earlier field fine: it throws the guest's error
 * otherwise. Call after checkText.
 */
export function resolveOptions(text, options, validate, names = OPTION_NAMES) {
  if (options === undefined || options === null) {
    return DEFAULT_RESOLVED;
  }
  // A literal, not a spread of DEFAULT_RESOLVED: V8 builds it from one boilerplate (measured: the spread of
  // these twelve fields cost about 0.1 us a call).
  const resolved = {
    ecLevel: DEFAULT_RESOLVED.ecLevel, ecIndex: 0, minSize: DEFAULT_RESOLVED.minSize, quietZone: DEFAULT_RESOLVED.quietZone,
    scale: undefined, dark: BLACK, light: WHITE,
    micro: false, version: undefined, minVersion: undefined, mask: undefined, boostEc: false, eci: false,
  };
  const refuse = (problem) => {
    // Default colours in the check: a bad colour comes before the same-colour
    // check, whatever the other colour is.
    validate({ ...resolved, dark: BLACK, light: WHITE });
    throw new QrError('invalid-options', problem);
  };
  if (typeof options !== 'object') {
    refuse(`options must be an object, got ${typeof options}`);
  }
  for (const name in options) {
    if (!names.includes(name)) {
      refuse(`unknown option ${JSON.stringify(name)} (known: ${names.join(', ')})`);
    }
  }
  const { ecLevel, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci } = options;
  if (ecLevel !== undefined) {
    const ecIndex = EC_LEVELS.indexOf(ecLevel);
    // A function, not a string: a replacement string would expand $& in the value.
    if (ecIndex === -1) refuse(MESSAGES['ec-level-name'].replace('{value}', () => describe(ecLevel)));
    Object.assign(resolved, { ecLevel, ecIndex });
  }
  for (const [name, value, key] of [['min-size', minSize, 'minSize'], ['quiet-zone', quietZone, 'quietZone'], ['scale', scale, 'scale']]) {
    if (value === undefined) continue;
    if (!isU32(value)) refuse(notU32(name, value));
    resolved[key] = value;
  }
  for (const [name, value] of [['dark', dark], ['light', light]]) {
    if (value === undefined) continue;
    const rgba = parseColor(value);
    if (rgba === null) refuse(MESSAGES.color.replace('{option}', name).replace('{value}', () => describe(value)));
    resolved[name] = rgba;
  }
  // The symbol record, after light and the same-colour check: the guest
  // checks run with the real colours and the symbol fields resolved so far.
  // Its level is low, which the name check above has found fine: the one
  // symbol check that reads the level (micro at high) comes after every
  // symbol field, so after any type error found here.
  if (micro !== undefined || version !== undefined || minVersion !== undefined || mask !== undefined || boostEc !== undefined
    || eci !== undefined) {
    const refuseSymbol = (problem) => {
      validate({ ...resolved, ecLevel: DEFAULTS.ecLevel, ecIndex: 0 });
      throw new QrError('invalid-options', problem);
    };
    for (const [name, value, key] of [['micro', micro, 'micro'], ['version', version, 'version'],
      ['min-version', minVersion, 'minVersion'], ['mask', mask, 'mask'], ['boost-ec', boostEc, 'boostEc'], ['eci', eci, 'eci']]) {
      if (value === undefined) continue;
      if (key === 'micro' || key === 'boostEc' || key === 'eci') {
        if (value !== true && value !== false) {
          refuseSymbol(BOOLEAN_MESSAGE.replace('{option}', name).replace('{value}', () => describe(value)));
        }
      } else if (!isU32(value)) {
        refuseSymbol(notU32(name, value));
      }
      resolved[key] = value;
    }
  }
  return resolved;
}

/**
 * Whether resolved options ask for the automatic symbol (every symbol option
 * at its default): the component path then passes `symbol: none`, the
 * cheaper lowering.
 */
export function isAutoSymbol({ micro, version, minVersion, mask, boostEc, eci }) {
  return !micro && !boostEc && !eci && version === undefined && minVersion === undefined && mask === undefined;
}

/**
 * Resolved options as the WIT `options` record in jco's shape: the colours
 * as `rgba` records, `scale` undefined for none, and `symbol` undefined
 * (none) for the automatic symbol, else the `symbol-options` record.
 */
export function witRecord(resolved) {
  const { ecLevel, minSize, quietZone, scale, dark, light } = resolved;
  let symbol;
  if (!isAutoSymbol(resolved)) {
    const { micro, version, minVersion, mask, boostEc, eci } = resolved;
    symbol = { micro, version, minVersion, mask, boostEc, eci };
  }
  return { ecLevel, minSize, quietZone, scale, dark: rgbaRecord(dark), light: rgbaRecord(light), symbol };
}

/**
 * The raw ABI's `symbol_flags` bits (guest/raw/ABI.md, version 7): Micro QR,
 * EC boost, which of version, min_version and mask are given, and ECI.
 */
export const SYMBOL_FLAGS = Object.freeze({ micro: 1, boostEc: 2, hasVersion: 4, hasMinVersion: 8, hasMask: 16, eci: 32 });

/** Resolved options' `symbol_flags` word (SYMBOL_FLAGS); 0 for the automatic symbol. */
export function symbolFlags({ micro, version, minVersion, mask, boostEc, eci }) {
  return (micro ? SYMBOL_FLAGS.micro : 0) | (boostEc ? SYMBOL_FLAGS.boostEc : 0) | (eci ? SYMBOL_FLAGS.eci : 0)
    | (version === undefined ? 0 : SYMBOL_FLAGS.hasVersion) | (minVersion === undefined ? 0 : SYMBOL_FLAGS.hasMinVersion)
    | (mask === undefined ? 0 : SYMBOL_FLAGS.hasMask);
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
 * text()'s options: resolveOptions's, plus `style` and `styleIndex`. The
 * contract checks the style after every other option: a style that is not
 * one of TEXT_STYLES is reported only once `validate(resolved)` has found
 * text and options fine (see resolveOptions).
 */
export function resolveTextOptions(text, options, validate) {
  const resolved = resolveOptions(text, options, validate, TEXT_OPTION_NAMES);
  // undefined takes the default; null is a value, refused like an ecLevel of null.
  const style = options?.style === undefined ? DEFAULTS.style : options.style;
  const styleIndex = TEXT_STYLES.indexOf(style);
  if (styleIndex === -1) {
    validate(resolved);
    throw new QrError('invalid-options', MESSAGES['text-style-name'].replace('{value}', () => describe(style)));
  }
  return { ...resolved, style, styleIndex };
}

/** Resolved SVG options when the user gives none: WIT `svg-options` at its defaults. */
const DEFAULT_SVG = Object.freeze({ viewBoxOnly: false, title: undefined, class: undefined });

/**
 * svg()'s options: resolveOptions's, plus `svg`, the WIT `svg-options` record
 * in jco's shape (`{ viewBoxOnly, title, class }`, the strings undefined for
 * none). The contract checks these after every other option (guest/core
 * SvgOptions::validate), so a problem found here is reported only once
 * `validate(resolved)` has found text and options fine (see resolveOptions).
 *
 * Most of the strings' rules are the guest's. The host answers itself, in
 * the guest's order (svgProblem), when the guest cannot be asked: a value
 * that is not a boolean or a string, a string with a lone surrogate (the
 * glues' TextEncoder would replace it with U+FFFD: a different title), and
 * a title over MAX_SVG_TITLE_BYTES or a class over MAX_SVG_CLASS_BYTES
 * (never copied into guest memory: a 100 MB title would exhaust it).
 */
export function resolveSvgOptions(text, options, validate) {
  const resolved = resolveOptions(text, options, validate, SVG_OPTION_NAMES);
  if (options === undefined || options === null) return { ...resolved, svg: DEFAULT_SVG };
  const { viewBoxOnly = false, title, class: className } = options;
  const svg = { viewBoxOnly, title, class: className };
  if (svg.viewBoxOnly === false && title === undefined && className === undefined) return { ...resolved, svg: DEFAULT_SVG };
  if (!svgNeedsGuest(svg)) {
    validate(resolved);
    throw new QrError('invalid-options', svgProblem(svg));
  }
  return { ...resolved, svg };
}

// Whether the guest can be asked about `svg` (a boolean, strings within
// their bounds and well-formed): false when the host must answer itself.
function svgNeedsGuest({ viewBoxOnly, title, class: className }) {
  const fits = (value, max) => value === undefined
    || (typeof value === 'string' && value.isWellFormed() && (value.length <= max || utf8Length(value) <= max));
  return (viewBoxOnly === true || viewBoxOnly === false) && fits(title, MAX_SVG_TITLE_BYTES) && fits(className, MAX_SVG_CLASS_BYTES);
}

/**
 * The first problem of SVG options `{ viewBoxOnly, title, class }` in the
 * contract's order (record order: view-box-only, title, class; for each
 * string its type, a lone surrogate, then guest/core SvgOptions::validate's
 * checks), as the contract words it; null when there is none. The guest
 * checks the same rules: this answers only for what the guest is never
 * shown (resolveSvgOptions), and the tests hold the two to the same answers.
 */
export function svgProblem({ viewBoxOnly = false, title, class: className }) {
  if (viewBoxOnly !== true && viewBoxOnly !== false) {
    return BOOLEAN_MESSAGE.replace('{option}', 'view-box-only').replace('{value}', () => describe(viewBoxOnly));
  }
  for (const [name, value] of [['title', title], ['class', className]]) {
    if (value === undefined) continue;
    if (typeof value !== 'string') return STRING_MESSAGE.replace('{option}', name).replace('{value}', () => describe(value));
    if (!value.isWellFormed()) return MESSAGES['option-lone-surrogate'].replace('{option}', name);
    const problem = name === 'title' ? titleProblem(value) : classProblem(value);
    if (problem !== null) return problem;
  }
  return null;
}

function titleProblem(title) {
  const bytes = utf8Length(title);
  if (bytes > MAX_SVG_TITLE_BYTES) {
    return MESSAGES['too-long'].replace('{option}', 'title').replace('{max}', MAX_SVG_TITLE_BYTES).replace('{value}', bytes);
  }
  // XML 1.0's Char: no C0 control but tab, LF and CR; no U+FFFE or U+FFFF (a well-formed string has no lone surrogate).
  const bad = /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/.exec(title);
  if (bad === null) return null;
  const char = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return MESSAGES['not-xml-char'].replace('{option}', 'title').replace('{char}', char)
    .replace('{index}', utf8Length(title.slice(0, bad.index)));
}

function classProblem(className) {
  const ok = /^[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*$/.test(className) && className.length <= MAX_SVG_CLASS_BYTES;
  return ok ? null : MESSAGES.class.replace('{value}', () => rustDebug(className));
}

/**
 * A string as Rust's `{:?}` writes it (the contract's `class` message
 * quotes the value so): in double quotes, `"` and `\` escaped, \0 \t \r \n,
 * and as `\u{hex}` every grapheme extender (combining marks, ZWNJ) and
 * every character Rust does not print (controls, format characters,
 * separators but the space, private use, unassigned).
 */
export function rustDebug(value) {
  let out = '"';
  for (const char of value) {
    const simple = RUST_ESCAPES[char];
    if (simple !== undefined) {
      out += simple;
    } else if (/[\p{Grapheme_Extend}\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(char) && char !== ' ') {
      out += `\\u{${char.codePointAt(0).toString(16)}}`;
    } else {
      out += char;
    }
  }
  return `${out}"`;
}

const RUST_ESCAPES = Object.freeze({ '\0': '\\0', '\t': '\\t', '\r': '\\r', '\n': '\\n', '"': '\\"', '\\': '\\\\' });

/**
 * The raw ABI's `svg_flags` bits (guest/raw/ABI.md, version 6): viewBox
 * only, and whether the title and the class are given.
 */
export const SVG_FLAGS = Object.freeze({ viewBoxOnly: 1, hasTitle: 2, hasClass: 4 });

/** Resolved SVG options' `svg_flags` word (SVG_FLAGS); 0 for the defaults. */
export function svgFlags({ viewBoxOnly, title, class: className }) {
  return (viewBoxOnly ? SVG_FLAGS.viewBoxOnly : 0) | (title === undefined ? 0 : SVG_FLAGS.hasTitle)
    | (className === undefined ? 0 : SVG_FLAGS.hasClass);
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
 * micro, boostEc and eci booleans; then the output's own arguments (svg's
 * viewBoxOnly, title and class; text's style index). A text goes to the text
 * export, a payload (a plain Uint8Array, checkInput) to its `*Bytes` twin.
 */
export function flatGenerators(exports, call) {
  // Taken once: neither the glue's nor the addon's exports are ever replaced.
  const { png, pngBytes, svg, svgBytes, matrix, matrixBytes, text, textBytes, pngRepeat } = exports;

  function callResolved(exportFn, data, resolved, ...extra) {
    const { ecIndex, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci } = resolved;
    return call(() => exportFn(data, ecIndex, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc,
      eci, ...extra));
  }

  // Checks text and options and renders nothing (pngRepeat zero times): what
  // resolveOptions runs before it reports a problem only the host sees. A
  // payload is checked through its stand-in text (validationText).
  const validate = (input) => (resolved) => callResolved(pngRepeat, validationText(input), resolved, 0);

  return Object.freeze({
    png(input, options) {
      const data = checkInput(input);
      return callResolved(typeof data === 'string' ? png : pngBytes, data, resolveOptions(data, options, validate(data)));
    },
    svg(input, options) {
      const data = checkInput(input);
      const resolved = resolveSvgOptions(data, options, validate(data));
      const { viewBoxOnly, title, class: className } = resolved.svg;
      return callResolved(typeof data === 'string' ? svg : svgBytes, data, resolved, viewBoxOnly, title, className);
    },
    matrix(input, options) {
      const data = checkInput(input);
      // One array out: the width as a little-endian u32, then the packed modules.
      return matrixFromPayload(
        callResolved(typeof data === 'string' ? matrix : matrixBytes, data, resolveOptions(data, options, validate(data))));
    },
    text(input, options) {
      const data = checkInput(input);
      const resolved = resolveTextOptions(data, options, validate(data));
      return callResolved(typeof data === 'string' ? text : textBytes, data, resolved, resolved.styleIndex);
    },
    // The probe: a text only, `times` a u32.
    pngRepeat(input, options, times) {
      checkCount('times', times);
      checkText(input);
      return callResolved(pngRepeat, input, resolveOptions(input, options, validate(input)), times);
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

function notU32(name, value) {
  return `${name} must be an integer within 0..=4294967295, got ${describe(value)}`;
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

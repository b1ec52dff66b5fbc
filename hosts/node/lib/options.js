// generated; do not edit.
// tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.
//
// The Node host's option layer: every option's name, default, type and bounds, the
// resolver's table (lib/common.js reads it) and the raw ABI's flag bits. Runtime-agnostic
// like the rest of lib/: the page (hosts/web) imports it too.

/** Error-correction levels in WIT order; the index is the raw ABI's encoding. */
export const EC_LEVELS = Object.freeze(['low', 'medium', 'quartile', 'high']);

/** text()'s styles in WIT `text-style` order; the index is the raw ABI's encoding. */
export const TEXT_STYLES = Object.freeze(['half-blocks', 'half-blocks-inverted', 'ascii']);

/** The WIT `qr-error` cases, in the order the contract checks them. */
export const ERROR_KINDS = Object.freeze(['invalid-text', 'empty-text', 'data-too-long', 'invalid-options']);

/** No QR code holds more than this many UTF-8 bytes: longer texts never reach a guest. */
export const MAX_TEXT_BYTES = 7089;

/** The most renders one pngRepeat probe call may ask for. */
export const MAX_PNG_REPEAT_TIMES = 50;

/** The SVG strings' bounds in UTF-8 bytes: never copied into a guest past them. */
export const MAX_SVG_TITLE_BYTES = 1024;
export const MAX_SVG_CLASS_BYTES = 256;

/** The contract's messages and templates, by the contract file's names. */
export const MESSAGES = Object.freeze({
  'class': "class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got {value}",
  'color': "{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}",
  'data-too-long': "text does not fit in any QR code: it is over 7089 bytes, the most one holds",
  'ec-level-index': "ec-level must be 0..=3 (low, medium, quartile, high), got {value}",
  'ec-level-name': "ec-level must be one of low, medium, quartile, high, got {value}",
  'empty-text': "text is empty",
  'lone-surrogate': "text contains a lone surrogate (not encodable as UTF-8)",
  'micro-ec-level': "ec-level high is not available in Micro QR (M4 goes up to quartile)",
  'micro-eci': "eci is not available in Micro QR (it has no ECI mode)",
  'not-integer': "{option} must be an integer, got {value}",
  'not-utf8': "text is not valid UTF-8 from byte {index}",
  'not-xml-char': "{option} holds {char} at byte {index}, which XML 1.0 cannot carry",
  'option-lone-surrogate': "{option} contains a lone surrogate (not encodable as UTF-8)",
  'option-not-text': "{option} is not valid UTF-8 from byte {index}",
  'out-of-range': "{option} must be within {min}..={max}, got {value}",
  'same-colors': "dark and light must be different colours, both are {value}",
  'text-style-index': "text-style must be 0..=2 (half-blocks, half-blocks-inverted, ascii), got {value}",
  'text-style-name': "text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}",
  'too-long': "{option} must be at most {max} UTF-8 bytes, got {value}",
  'version-conflict': "version and min-version exclude each other: give one",
});

/**
 * Every option's default (WIT has none): undefined is none. The colours as CSS hex, as the
 * options take them; `style` is text()'s own, viewBoxOnly, title and class svg()'s.
 */
export const DEFAULTS = Object.freeze({
  ecLevel: 'low',
  minSize: 200,
  quietZone: 4,
  scale: undefined,
  dark: '#000000ff',
  light: '#ffffffff',
  micro: false,
  version: undefined,
  minVersion: undefined,
  mask: undefined,
  boostEc: false,
  eci: false,
  viewBoxOnly: false,
  title: undefined,
  class: undefined,
  style: 'half-blocks',
});

/**
 * The options resolveOptions reads, in check order (WIT `options`, then `symbol-options`):
 * the JS name, the WIT name (the messages'), the type ('ec-level', 'u32', 'option-u32', 'rgba',
 * 'bool'), the bounds and Micro QR's (the guest checks them; a host names them for an integer
 * outside u32) and whether it is a field of the symbol record.
 */
export const OPTION_FIELDS = Object.freeze([
  Object.freeze({ name: 'ecLevel', wit: 'ec-level', type: 'ec-level', bounds: null, microBounds: null, symbol: false }),
  Object.freeze({ name: 'minSize', wit: 'min-size', type: 'u32', bounds: Object.freeze([1, 4096]), microBounds: null, symbol: false }),
  Object.freeze({ name: 'quietZone', wit: 'quiet-zone', type: 'u32', bounds: Object.freeze([0, 16]), microBounds: null, symbol: false }),
  Object.freeze({ name: 'scale', wit: 'scale', type: 'option-u32', bounds: Object.freeze([1, 20]), microBounds: null, symbol: false }),
  Object.freeze({ name: 'dark', wit: 'dark', type: 'rgba', bounds: null, microBounds: null, symbol: false }),
  Object.freeze({ name: 'light', wit: 'light', type: 'rgba', bounds: null, microBounds: null, symbol: false }),
  Object.freeze({ name: 'micro', wit: 'micro', type: 'bool', bounds: null, microBounds: null, symbol: true }),
  Object.freeze({ name: 'version', wit: 'version', type: 'option-u32', bounds: Object.freeze([1, 40]), microBounds: Object.freeze([1, 4]), symbol: true }),
  Object.freeze({ name: 'minVersion', wit: 'min-version', type: 'option-u32', bounds: Object.freeze([1, 40]), microBounds: Object.freeze([1, 4]), symbol: true }),
  Object.freeze({ name: 'mask', wit: 'mask', type: 'option-u32', bounds: Object.freeze([0, 7]), microBounds: Object.freeze([0, 3]), symbol: true }),
  Object.freeze({ name: 'boostEc', wit: 'boost-ec', type: 'bool', bounds: null, microBounds: null, symbol: true }),
  Object.freeze({ name: 'eci', wit: 'eci', type: 'bool', bounds: null, microBounds: null, symbol: true }),
]);

/** svg()'s own options (WIT `svg-options`), checked after every other option. */
export const SVG_OPTION_FIELDS = Object.freeze([
  Object.freeze({ name: 'viewBoxOnly', wit: 'view-box-only', type: 'bool', bounds: null, microBounds: null, symbol: false }),
  Object.freeze({ name: 'title', wit: 'title', type: 'option-string', bounds: Object.freeze([0, 1024]), microBounds: null, symbol: false }),
  Object.freeze({ name: 'class', wit: 'class', type: 'option-string', bounds: Object.freeze([1, 256]), microBounds: null, symbol: false }),
]);

/** text()'s own option (WIT `text-style`), checked after every other option. */
export const TEXT_STYLE_OPTION = 'style';

/** The raw ABI's `symbol_flags` bits (guest/raw/ABI.md). */
export const SYMBOL_FLAGS = Object.freeze({ micro: 1, hasVersion: 4, hasMinVersion: 8, hasMask: 16, boostEc: 2, eci: 32 });

/** The raw ABI's `svg_flags` bits (guest/raw/ABI.md). */
export const SVG_FLAGS = Object.freeze({ viewBoxOnly: 1, hasTitle: 2, hasClass: 4 });

/**
 * Resolved options at their defaults (resolveOptions's shape: `ecIndex` the level's index,
 * the colours as 0xRRGGBBAA). A fresh literal each call: V8 builds it from one boilerplate.
 */
export function defaultResolved() {
  return { ecIndex: 0, ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined, dark: 0x000000ff, light: 0xffffffff, micro: false, version: undefined, minVersion: undefined, mask: undefined, boostEc: false, eci: false };
}

/** Whether resolved options ask for the automatic symbol (WIT `symbol: none`, the cheaper lowering). */
export function isAutoSymbol(resolved) {
  return resolved.micro === false
    && resolved.version === undefined
    && resolved.minVersion === undefined
    && resolved.mask === undefined
    && resolved.boostEc === false
    && resolved.eci === false;
}

/** Resolved options' WIT `symbol-options` record, in jco's shape. */
export function witSymbol(resolved) {
  return { micro: resolved.micro, version: resolved.version, minVersion: resolved.minVersion, mask: resolved.mask, boostEc: resolved.boostEc, eci: resolved.eci };
}

/** Resolved options' raw `symbol_flags` word (SYMBOL_FLAGS); 0 for the automatic symbol. */
export function symbolFlags(resolved) {
  return (resolved.micro ? 1 : 0)
    | (resolved.version === undefined ? 0 : 4)
    | (resolved.minVersion === undefined ? 0 : 8)
    | (resolved.mask === undefined ? 0 : 16)
    | (resolved.boostEc ? 2 : 0)
    | (resolved.eci ? 32 : 0);
}

/** Resolved SVG options' raw `svg_flags` word (SVG_FLAGS); 0 for the defaults. */
export function svgFlags(svg) {
  return (svg.viewBoxOnly ? 1 : 0)
    | (svg.title === undefined ? 0 : 2)
    | (svg.class === undefined ? 0 : 4);
}

/**
 * Calls `fn` as the flat exports take the options (guest/bindgen, the native addon): the
 * input, the level's index, every other field in WIT order, then the output's own arguments.
 */
export function callFlat(fn, data, resolved, ...extra) {
  return fn(data, resolved.ecIndex, resolved.minSize, resolved.quietZone, resolved.scale, resolved.dark, resolved.light, resolved.micro, resolved.version, resolved.minVersion, resolved.mask, resolved.boostEc, resolved.eci, ...extra);
}

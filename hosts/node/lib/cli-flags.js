// generated; do not edit.
// tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.
//
// The CLI's option flags (cli.js reads them), one per option of the contract's table, in
// its order: the flag, the option's JS name, its type, the value's name (null: a flag that
// takes none), the one subcommand that takes it (null: every one) and the help line, the
// default and the possible values appended as clap appends them to the Rust CLI's.

export const CLI_FLAGS = Object.freeze([
  Object.freeze({
    flag: 'ec-level', name: 'ecLevel', type: 'ec-level', value: 'EC_LEVEL', command: null,
    help: 'Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable [default: low] [possible values: low, medium, quartile, high]',
  }),
  Object.freeze({
    flag: 'min-size', name: 'minSize', type: 'u32', value: 'MIN_SIZE', command: null,
    help: 'Minimum image width and height in pixels (1..=4096) [default: 200]',
  }),
  Object.freeze({
    flag: 'quiet-zone', name: 'quietZone', type: 'u32', value: 'QUIET_ZONE', command: null,
    help: 'Light margin around the code, in modules (the standard asks for 4) (0..=16) [default: 4]',
  }),
  Object.freeze({
    flag: 'scale', name: 'scale', type: 'option-u32', value: 'SCALE', command: null,
    help: 'Pixels per module; when given it sizes the image (min-size is checked but unused) (1..=20)',
  }),
  Object.freeze({
    flag: 'dark', name: 'dark', type: 'rgba', value: 'HEX', command: null,
    help: 'The dark modules\' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa [default: #000000ff]',
  }),
  Object.freeze({
    flag: 'light', name: 'light', type: 'rgba', value: 'HEX', command: null,
    help: 'The light modules\' and the quiet zone\'s colour, as dark; must differ from dark [default: #ffffffff]',
  }),
  Object.freeze({
    flag: 'micro', name: 'micro', type: 'bool', value: null, command: null,
    help: 'A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI',
  }),
  Object.freeze({
    flag: 'symbol-version', name: 'version', type: 'option-u32', value: 'N', command: null,
    help: 'Exactly this version; a text it cannot hold is data-too-long. Not with min-version (1..=40, 1..=4 with micro)',
  }),
  Object.freeze({
    flag: 'min-version', name: 'minVersion', type: 'option-u32', value: 'N', command: null,
    help: 'At least this version: the smallest from it up that holds the text (1..=40, 1..=4 with micro)',
  }),
  Object.freeze({
    flag: 'mask', name: 'mask', type: 'option-u32', value: 'N', command: null,
    help: 'This mask pattern instead of the one with the lowest penalty score (0..=7, 0..=3 with micro)',
  }),
  Object.freeze({
    flag: 'boost-ec', name: 'boostEc', type: 'bool', value: null, command: null,
    help: 'Raise the EC level as far as the chosen version still holds the text',
  }),
  Object.freeze({
    flag: 'eci', name: 'eci', type: 'bool', value: null, command: null,
    help: 'Precede the data with ECI designator 26 (UTF-8); not with micro',
  }),
  Object.freeze({
    flag: 'view-box-only', name: 'viewBoxOnly', type: 'bool', value: null, command: 'svg',
    help: 'SVG only: leave out width and height, so the document scales to its box',
  }),
  Object.freeze({
    flag: 'title', name: 'title', type: 'option-string', value: 'TEXT', command: 'svg',
    help: 'SVG only: a <title> (the code\'s accessible name), in UTF-8 bytes of text XML 1.0 can carry (at most 1024)',
  }),
  Object.freeze({
    flag: 'class', name: 'class', type: 'option-string', value: 'NAMES', command: 'svg',
    help: 'SVG only: the <svg> element\'s class, CSS class names separated by single spaces, in bytes (at most 256)',
  }),
  Object.freeze({
    flag: 'style', name: 'style', type: 'text-style', value: 'STYLE', command: 'text',
    help: 'text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark module [default: half-blocks] [possible values: half-blocks, half-blocks-inverted, ascii]',
  }),
]);

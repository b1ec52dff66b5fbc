// generated; do not edit.
// tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.
//
// The option types of every entry point (index.d.ts re-exports them).

/** Error-correction level: about 7 %, 15 %, 25 %, 30 % of codewords recoverable. */
export type EcLevel = 'low' | 'medium' | 'quartile' | 'high';

/** How text() draws a code. */
export type TextStyle = 'half-blocks' | 'half-blocks-inverted' | 'ascii';

/** The WIT `qr-error` cases. */
export type QrErrorKind = 'empty-text' | 'invalid-text' | 'data-too-long' | 'invalid-options';

/**
 * A CSS hex colour: '#rgb', '#rgba', '#rrggbb' or '#rrggbbaa' (either case). The type catches a
 * colour name ('red'); the digits are checked when the call runs (invalid-options).
 */
export type HexColor = `#${string}`;

/** png(), matrix() and the data URLs' options: every field optional, a missing one at its default. */
export interface Options {
  /** Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable. Default 'low'. */
  ecLevel?: EcLevel;
  /** Minimum image width and height in pixels. 1..=4096. Default 200. */
  minSize?: number;
  /** Light margin around the code, in modules (the standard asks for 4). 0..=16. Default 4. */
  quietZone?: number;
  /** Pixels per module; when given it sizes the image (min-size is checked but unused). 1..=20. Default none. */
  scale?: number;
  /** The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa. Default '#000000ff'. */
  dark?: HexColor;
  /** The light modules' and the quiet zone's colour, as dark; must differ from dark. Default '#ffffffff'. */
  light?: HexColor;
  /** A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI. Default false. */
  micro?: boolean;
  /** Exactly this version; a text it cannot hold is data-too-long. Not with min-version. 1..=40 (1..=4 with micro). Default none. */
  version?: number;
  /** At least this version: the smallest from it up that holds the text. 1..=40 (1..=4 with micro). Default none. */
  minVersion?: number;
  /** This mask pattern instead of the one with the lowest penalty score. 0..=7 (0..=3 with micro). Default none. */
  mask?: number;
  /** Raise the EC level as far as the chosen version still holds the text. Default false. */
  boostEc?: boolean;
  /** Precede the data with ECI designator 26 (UTF-8); not with micro. Default false. */
  eci?: boolean;
}

/** svg()'s and svgDataUrl()'s options: Options and the SVG options, checked after every other option. */
export interface SvgOptions extends Options {
  /** SVG only: leave out width and height, so the document scales to its box. Default false. */
  viewBoxOnly?: boolean;
  /** SVG only: a <title> (the code's accessible name), in UTF-8 bytes of text XML 1.0 can carry. Default none. */
  title?: string;
  /** SVG only: the <svg> element's class, CSS class names separated by single spaces, in bytes. Default none. */
  class?: string;
}

/** text()'s options: Options and the style, checked after every other option. */
export interface TextOptions extends Options {
  /** text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark module. Default 'half-blocks'. */
  style?: TextStyle;
}

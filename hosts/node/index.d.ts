// Types of 'qrglue' (the component path). 'qrglue/raw' has the same API.

/**
 * What a code is made of: a text (a string: its UTF-8 is encoded, and a lone surrogate is invalid-text), or
 * a binary payload whose bytes are encoded as they are, not only UTF-8 (WIT `png-bytes` and so on): a
 * Uint8Array (a Buffer is one), an ArrayBuffer or a DataView, read in place. A text's UTF-8 as bytes gives
 * exactly the text's code. Anything else (a number, an array of numbers, another typed array) is a TypeError.
 */
export type Input = string | Uint8Array | ArrayBuffer | DataView;

/** Error-correction level: about 7 %, 15 %, 25 %, 30 % of codewords recoverable. */
export type EcLevel = 'low' | 'medium' | 'quartile' | 'high';

/** How text() draws a code: half blocks (ink on the dark modules, or on the light ones), or "##" per dark module. */
export type TextStyle = 'half-blocks' | 'half-blocks-inverted' | 'ascii';

/** Every field is optional; a missing one takes its default (DEFAULTS). */
export interface Options {
  /** Default 'low'. */
  ecLevel?: EcLevel;
  /** Minimum image width in pixels, 1..=4096. Default 200. */
  minSize?: number;
  /** Margin in modules, 0..=16. Default 4. */
  quietZone?: number;
  /** Pixels per module, 1..=20; when given it sizes the image (minSize is checked but unused). Default: none. */
  scale?: number;
  /**
   * The dark modules' colour as CSS hex: '#rgb', '#rgba', '#rrggbb' or '#rrggbbaa'. Default '#000000ff'.
   * Black on opaque white is a grayscale PNG; any other pair a two-colour palette (with alpha when not opaque).
   */
  dark?: string;
  /** The light modules' and the quiet zone's colour, as dark. Default '#ffffffff'; must differ from dark. */
  light?: string;
  /**
   * A Micro QR code (M1..M4, 11 to 17 modules across, one finder pattern) for a short text, instead of a
   * normal one. Default false. Micro QR has no level 'high' (invalid-options).
   */
  micro?: boolean;
  /**
   * Exactly this version: 1..=40, or 1..=4 (M1..M4) with micro; a text it cannot hold is data-too-long.
   * Default: none, the smallest version that holds the text. Not together with minVersion.
   */
  version?: number;
  /** At least this version (same bounds as version): the smallest from it up that holds the text. Default: none. */
  minVersion?: number;
  /** This mask pattern, 0..=7 (0..=3 with micro), instead of the one with the lowest penalty. Default: none. */
  mask?: number;
  /** Raise the EC level as far as the chosen version still holds the text. Default false. */
  boostEc?: boolean;
  /**
   * Precede the data with ECI designator 26 (UTF-8) so readers decode its bytes as UTF-8 (segno's `eci=True`);
   * costs 12 bits, so a text near a version's capacity may need the next version. Not with micro (invalid-options).
   * Payloads (Uint8Array) take it too: the caller declares their bytes UTF-8. Default false.
   */
  eci?: boolean;
}

/**
 * svg()'s and svgDataUrl()'s options: Options and the SVG options (WIT `svg-options`), checked after every
 * other option. The other outputs do not take them (an unknown option, invalid-options, as `style` is for
 * them). All three at their defaults give the document earlier versions wrote, byte for byte.
 */
export interface SvgOptions extends Options {
  /** Leave out width and height: only the viewBox stays, so the document scales to its box. Default false. */
  viewBoxOnly?: boolean;
  /**
   * A <title> (the code's accessible name), escaped so that an XML parser reads back exactly this text: at
   * most 1024 UTF-8 bytes, only characters XML 1.0 can carry (no C0 control but tab, LF, CR; no U+FFFE,
   * U+FFFF; no lone surrogate). Default: none.
   */
  title?: string;
  /**
   * The <svg> element's class attribute: CSS class names (ASCII letters, digits, - and _) separated by
   * single spaces, 1..=256 bytes. The WIT name: `{ class: 'qr' }` is legal JavaScript. Default: none.
   */
  class?: string;
}

/** text()'s options: Options and the style. */
export interface TextOptions extends Options {
  /** Default 'half-blocks'. Checked after every other option. */
  style?: TextStyle;
}

/**
 * The module matrix, quiet zone not included (a frozen object). `modules`
 * holds width * width bits, row-major, most significant bit first: module
 * (x, y) is dark when bit i = y * width + x is set, that is
 * `(modules[i >> 3] >> (7 - (i & 7))) & 1` (isDark reads it).
 */
export interface QrMatrix {
  /** Modules per side: 21 (version 1) to 177 (version 40), or 11 (M1) to 17 (M4) for Micro QR. */
  readonly width: number;
  /** ceil(width * width / 8) bytes; unused bits of the last byte are 0. */
  readonly modules: Uint8Array;
}

/** The WIT qr-error cases, in the order they are checked. */
export type QrErrorKind = 'invalid-text' | 'empty-text' | 'data-too-long' | 'invalid-options';

/** Why no code was produced. */
export declare class QrError extends Error {
  readonly name: 'QrError';
  readonly kind: QrErrorKind;
  constructor(kind: QrErrorKind, detail?: string);
}

/** The wasm guest trapped; the next call runs on a fresh instance. */
export declare class GuestTrapError extends Error {
  readonly name: 'GuestTrapError';
}

/**
 * Every option's default; `scale` is undefined (none: minSize sizes the image), and so are `version`,
 * `minVersion` and `mask` (none: the automatic symbol).
 */
export declare const DEFAULTS: Readonly<Required<Omit<TextOptions, 'scale' | 'version' | 'minVersion' | 'mask'>>
  & { scale: undefined; version: undefined; minVersion: undefined; mask: undefined }
  & { viewBoxOnly: false; title: undefined; class: undefined }>;
export declare const EC_LEVELS: readonly EcLevel[];
/** The text styles in WIT order. */
export declare const TEXT_STYLES: readonly TextStyle[];
/** Texts over this many UTF-8 bytes (payloads over this many bytes) are data-too-long before reaching wasm. */
export declare const MAX_TEXT_BYTES: 7089;

/** The code as a PNG (1-bit: grayscale, or a two-colour palette). The array is a copy, owned by the caller. */
export declare function png(input: Input, options?: Options): Uint8Array;
/** The code as an SVG document (with a title, a class, or no pixel size: SvgOptions). */
export declare function svg(input: Input, options?: SvgOptions): string;
/** png() as a `data:image/png;base64,...` URL (for an <img src>). */
export declare function pngDataUrl(input: Input, options?: Options): string;
/** svg() as a `data:image/svg+xml;base64,...` URL. */
export declare function svgDataUrl(input: Input, options?: SvgOptions): string;
/** The module matrix, for drawing the code yourself (only ecLevel and the symbol options shape it; the others are checked). */
export declare function matrix(input: Input, options?: Options): QrMatrix;
/** The code as lines of text, each ending in "\n", quiet zone included (minSize, scale and the colours are checked but unused). */
export declare function text(input: Input, options?: TextOptions): string;
/** Whether module (x, y) of `matrix` is dark (0-based, quiet zone not included); RangeError outside it. */
export declare function isDark(matrix: QrMatrix, x: number, y: number): boolean;

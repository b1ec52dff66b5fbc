/**
 * The component path: `qrglue.component.wasm` through the WebAssembly Component Model (transpiled by jco).
 * `qrglue/raw`, `qrglue/bindgen` and `qrglue/native` have this API; `qrglue/auto` picks the native addon
 * when one is installed. Every call is synchronous and throws {@link QrError} for bad input.
 *
 * @module qrglue
 */

/**
 * What a code is made of: a text (a string: its UTF-8 is encoded, and a lone surrogate is invalid-text), or
 * a binary payload whose bytes are encoded as they are, not only UTF-8 (WIT `png-bytes` and so on): a
 * Uint8Array (a Buffer is one), an ArrayBuffer or a DataView, read in place. A text's UTF-8 as bytes gives
 * exactly the text's code. Anything else (a number, an array of numbers, another typed array) is a TypeError.
 */
export type Input = string | Uint8Array | ArrayBuffer | DataView;

// The option types (Options, SvgOptions, TextOptions, EcLevel, TextStyle, HexColor, QrErrorKind):
// generated from the contract's option table (lib/option-types.d.ts, `just contract`).
import type { EcLevel, Options, QrErrorKind, SvgOptions, TextOptions, TextStyle } from './lib/option-types.js';
export type { EcLevel, HexColor, Options, QrErrorKind, SvgOptions, TextOptions, TextStyle } from './lib/option-types.js';

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

/**
 * Why no code was produced: the contract's error, the same kind and message on every path
 * (`message` names the option, its bounds and the value given, for invalid-options).
 */
export declare class QrError extends Error {
  /** Always 'QrError'. */
  readonly name: 'QrError';
  /** The WIT `qr-error` case: compare this, not the message. */
  readonly kind: QrErrorKind;
  /**
   * @param kind the WIT case
   * @param detail the message, for invalid-text and invalid-options (the other two kinds have a fixed one)
   */
  constructor(kind: QrErrorKind, detail?: string);
}

/** The wasm guest trapped; the next call runs on a fresh instance. */
export declare class GuestTrapError extends Error {
  /** Always 'GuestTrapError'. */
  readonly name: 'GuestTrapError';
}

/**
 * Every option's default; `scale` is undefined (none: minSize sizes the image), and so are `version`,
 * `minVersion` and `mask` (none: the automatic symbol).
 */
export declare const DEFAULTS: Readonly<Required<Omit<TextOptions, 'scale' | 'version' | 'minVersion' | 'mask'>>
  & {
    /** None: minSize sizes the image. */
    scale: undefined;
    /** None: the smallest version that holds the text. */
    version: undefined;
    /** None: from version 1 (M1 with micro) up. */
    minVersion: undefined;
    /** None: the mask with the lowest penalty score. */
    mask: undefined;
  }
  & {
    /** The SVG has a width and a height in pixels. */
    viewBoxOnly: false;
    /** No <title>. */
    title: undefined;
    /** No class attribute. */
    class: undefined;
  }>;
/** The EC levels in WIT order, lowest first. */
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

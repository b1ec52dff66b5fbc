// Types of 'qrglue' (the component path). 'qrglue/raw' has the same API.

/** Error-correction level: about 7 %, 15 %, 25 %, 30 % of codewords recoverable. */
export type EcLevel = 'low' | 'medium' | 'quartile' | 'high';

/** Every field is optional; a missing one takes its default (DEFAULTS). */
export interface Options {
  /** Default 'low'. */
  ecLevel?: EcLevel;
  /** Minimum image width in pixels, 1..=4096. Default 200. */
  minSize?: number;
  /** Margin in modules, 0..=16. Default 4. */
  quietZone?: number;
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

export declare const DEFAULTS: Readonly<Required<Options>>;
export declare const EC_LEVELS: readonly EcLevel[];
/** Texts over this many UTF-8 bytes are data-too-long before reaching wasm. */
export declare const MAX_TEXT_BYTES: 7089;

/** The code as a PNG (1-bit grayscale). The array is a copy, owned by the caller. */
export declare function png(text: string, options?: Options): Uint8Array;
/** The code as an SVG document. */
export declare function svg(text: string, options?: Options): string;

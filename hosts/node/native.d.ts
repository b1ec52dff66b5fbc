// Types of 'qrglue/native': the API of 'qrglue' (see index.d.ts), through the
// native addon. No GuestTrapError: there is no wasm guest to trap.
export type { EcLevel, Options, QrErrorKind } from './index.js';
export { QrError, DEFAULTS, EC_LEVELS, MAX_TEXT_BYTES } from './index.js';
import type { Options } from './index.js';

/** The code as a PNG (1-bit grayscale). The array owns its bytes; later calls never change them. */
export declare function png(text: string, options?: Options): Uint8Array;
/** The code as an SVG document. */
export declare function svg(text: string, options?: Options): string;

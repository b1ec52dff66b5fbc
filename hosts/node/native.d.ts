/**
 * The native path: the API of {@link qrglue} through the Node-API addon of the platform package
 * (`qrglue-linux-x64-gnu`, ...), no wasm. Importing it where no addon is installed for this platform
 * throws an Error that says how to get one.
 * No GuestTrapError: there is no wasm guest to trap.
 *
 * @module qrglue/native
 */
export type { EcLevel, HexColor, Input, Options, QrErrorKind, QrMatrix, SvgOptions, TextOptions, TextStyle } from './index.js';
export { QrError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './index.js';
import type { Input, Options, QrMatrix, SvgOptions, TextOptions } from './index.js';

/** The code as a PNG (1-bit grayscale). The array owns its bytes; later calls never change them. */
export declare function png(input: Input, options?: Options): Uint8Array;
/** The code as an SVG document. */
export declare function svg(input: Input, options?: SvgOptions): string;
/** png() as a data: URL (see index.d.ts). */
export declare function pngDataUrl(input: Input, options?: Options): string;
/** svg() as a data: URL (see index.d.ts). */
export declare function svgDataUrl(input: Input, options?: SvgOptions): string;
/** The module matrix (see index.d.ts). */
export declare function matrix(input: Input, options?: Options): QrMatrix;
/** The code as lines of text (see index.d.ts). */
export declare function text(input: Input, options?: TextOptions): string;

/**
 * The native addon where one is installed for this platform, else the component path; {@link path}
 * says which. The API of {@link qrglue}.
 *
 * @module qrglue/auto
 */
export type { EcLevel, HexColor, Input, Options, QrErrorKind, QrMatrix, SvgOptions, TextOptions, TextStyle } from './index.js';
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './index.js';
import type { Input, Options, QrMatrix, SvgOptions, TextOptions } from './index.js';

/** The path chosen when the module loaded: 'native' (the addon) or 'component' (the wasm fallback). */
export declare const path: 'native' | 'component';
/** The code as a PNG (1-bit grayscale). The array owns its bytes; later calls never change them. */
export declare function png(input: Input, options?: Options): Uint8Array;
/** The code as an SVG document. */
export declare function svg(input: Input, options?: SvgOptions): string;
/** The module matrix (see index.d.ts). */
export declare function matrix(input: Input, options?: Options): QrMatrix;
/** The code as lines of text (see index.d.ts). */
export declare function text(input: Input, options?: TextOptions): string;
/** The PNG as a `data:image/png;base64,` URL (see index.d.ts). */
export declare function pngDataUrl(input: Input, options?: Options): string;
/** The SVG as a `data:image/svg+xml;base64,` URL (see index.d.ts). */
export declare function svgDataUrl(input: Input, options?: SvgOptions): string;

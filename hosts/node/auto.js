// qrglue/auto: the API of 'qrglue' through the fastest path this install has.
// The native addon where one is installed for this platform (qrglue/native:
// the platform package npm picked from optionalDependencies, or the in-tree
// build), else the Component Model wasm path ('qrglue'), which needs nothing
// but the package itself. `path` says which was chosen. Only a missing addon
// (LOAD_ERROR, code QRGLUE_NO_ADDON) falls back: an addon that is there but
// fails to load throws, so a broken install is never silently slower.
//
// Both paths are imported statically (no top-level await), so that CommonJS
// code can `require('qrglue/auto')` on Node >= 20.19 (require(esm)); the
// component path only compiles its wasm on its first call, so importing it
// beside the addon costs module loading, not compilation.
import * as native from './lib/native.js';
import * as component from './index.js';

const chosen = native.LOAD_ERROR === null ? native : component;

/** The path this entry uses: 'native' (the addon) or 'component' (wasm). */
export const path = chosen === native ? 'native' : 'component';
export const { png, svg, matrix, text, pngDataUrl, svgDataUrl } = chosen;
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './lib/common.js';

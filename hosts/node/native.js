// qrglue/native: the same API as 'qrglue', through a native addon (napi-rs)
// built from this repository for this platform (`just build-node`). Importing
// it where the addon was not built throws an Error that says how to build it;
// 'qrglue' and 'qrglue/raw' never load it.
import { LOAD_ERROR } from './lib/native.js';

if (LOAD_ERROR !== null) throw LOAD_ERROR;

export { png, svg, matrix, text, pngDataUrl, svgDataUrl } from './lib/native.js';
export { QrError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './lib/common.js';

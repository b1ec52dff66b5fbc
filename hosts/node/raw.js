// qrglue/raw: the same API as 'qrglue', over qrglue.raw.wasm with glue written
// by hand against WebAssembly (guest/raw/ABI.md). This entry is the only
// Node-specific part: it reads the module's bytes from the package.
import { readFileSync } from 'node:fs';
import { initRaw, RAW_WASM_URL } from './lib/raw.js';
import './lib/node-base64.js';

initRaw(readFileSync(RAW_WASM_URL));

export { png, svg, matrix, text, pngDataUrl, svgDataUrl } from './lib/raw.js';
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './lib/common.js';

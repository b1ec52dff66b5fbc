// qrglue/bindgen: the same API as 'qrglue', over guest/bindgen compiled to
// wasm with wasm-bindgen's generated glue (lib/bindgen.js). This entry is the
// only Node-specific part: it reads the module's bytes from the package.
import { readFileSync } from 'node:fs';
import { initBindgen, BINDGEN_WASM_URL } from './lib/bindgen.js';
import './lib/node-base64.js';

initBindgen(readFileSync(BINDGEN_WASM_URL));

export { png, svg, matrix, text, pngDataUrl, svgDataUrl } from './lib/bindgen.js';
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './lib/common.js';

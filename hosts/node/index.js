// qrglue: QR codes through the WebAssembly Component Model (jco-transpiled).
// The same API over the hand-written raw ABI is 'qrglue/raw'. This entry is
// the only Node-specific part: it reads jco's core module from the package.
import { readFileSync } from 'node:fs';
import { initComponent } from './lib/component.js';
import './lib/node-base64.js';

initComponent((name) => readFileSync(new URL(`./gen/${name}`, import.meta.url)));

export { png, svg, matrix, text, pngDataUrl, svgDataUrl } from './lib/component.js';
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './lib/common.js';

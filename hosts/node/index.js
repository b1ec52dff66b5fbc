// qrglue: QR codes through the WebAssembly Component Model (jco-transpiled).
// The same API over the hand-written raw ABI is 'qrglue/raw'.
export { png, svg } from './lib/component.js';
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, MAX_TEXT_BYTES } from './lib/common.js';

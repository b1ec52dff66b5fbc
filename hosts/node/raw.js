// qrglue/raw: the same API as 'qrglue', over qrglue.raw.wasm with glue written
// by hand against WebAssembly (guest/raw/ABI.md).
export { png, svg } from './lib/raw.js';
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, MAX_TEXT_BYTES } from './lib/common.js';

// qrglue/native/probe: the measuring calls of the native path, for benchmarks
// and tests (not an API for users). Separate from 'qrglue/probe' so that the
// wasm probes never load the addon.
export { probe as native } from './lib/native.js';

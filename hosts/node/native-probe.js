// The measuring calls of the native path, for the bench and the tests, which
// import this file by path (not in the npm package, not an API for users).
// Separate from probe.js so that the wasm probes never load the addon.
import { LOAD_ERROR } from './lib/native.js';

if (LOAD_ERROR !== null) throw LOAD_ERROR;

export { probe as native } from './lib/native.js';

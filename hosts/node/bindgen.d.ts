/**
 * The wasm-bindgen path: the API of {@link qrglue} over `qrglue.bindgen.wasm` and the JS glue
 * wasm-bindgen-cli generates.
 *
 * @module qrglue/bindgen
 */
export * from './index.js';

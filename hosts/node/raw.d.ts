/**
 * The raw path: the API of {@link qrglue} over `qrglue.raw.wasm`, through hand-written glue on plain
 * `WebAssembly` (guest/raw/ABI.md), no generated code.
 *
 * @module qrglue/raw
 */
export * from './index.js';

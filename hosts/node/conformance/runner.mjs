// Conformance runner for the Node host (tests/conformance/README.md): renders
// every case of the corpus (QRGLUE_VECTORS_DIR, default tests/vectors; a
// data_hex case's payload as a Uint8Array) on each path through the package's
// public API and prints one JSON object:
//   {"paths": {"node-component": {id: outcome}, "node-raw": {...}, "node-native": {...}, "node-bindgen": {...}}}
// An outcome (tests/support/corpus.js) is {png_sha256, png_bytes, svg_sha256,
// matrix_sha256, text_sha256: {style: digest}} or {error: kind, message}.
// Exits 0 whenever it produced an outcome for every case; never reads
// expected.json (tests/conformance/run.py compares).
//
// Not part of the npm package ("files" in package.json leaves it out).
import * as componentPath from 'qrglue';
import * as rawPath from 'qrglue/raw';
import * as nativePath from 'qrglue/native';
import * as bindgenPath from 'qrglue/bindgen';
import { loadCases, caseInput, jsSvgOptions, outcome } from '../tests/support/corpus.js';

const PATHS = { 'node-component': componentPath, 'node-raw': rawPath, 'node-native': nativePath, 'node-bindgen': bindgenPath };

const results = Object.fromEntries(Object.keys(PATHS).map((name) => [name, {}]));
for (const testCase of loadCases()) {
  // Built once per case and shared by every path (the 50 MB text is 50 MB):
  // a text, or for a data_hex case its bytes as a Uint8Array.
  const input = caseInput(testCase);
  const options = jsSvgOptions(testCase.options); // outcome passes the SVG options to svg alone
  for (const [name, api] of Object.entries(PATHS)) {
    results[name][testCase.id] = outcome(api, input, options);
  }
}
process.stdout.write(`${JSON.stringify({ paths: results })}\n`);

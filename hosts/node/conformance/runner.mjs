// Conformance runner for the Node host (tests/conformance/README.md): renders
// every case of the corpus (QRGLUE_VECTORS_DIR, default tests/vectors) on each
// path through the package's public API and prints one JSON object:
//   {"paths": {"node-component": {id: outcome}, "node-raw": {...}, "node-native": {...}, "node-bindgen": {...}}}
// An outcome is {png_sha256, png_bytes, svg_sha256} or {error: kind, message}.
// Exits 0 whenever it produced an outcome for every case; never reads
// expected.json (tests/conformance/run.py compares).
//
// Not part of the npm package ("files" in package.json leaves it out).
import { createHash } from 'node:crypto';
import * as componentPath from 'qrglue';
import * as rawPath from 'qrglue/raw';
import * as nativePath from 'qrglue/native';
import * as bindgenPath from 'qrglue/bindgen';
import { loadCases, caseText, jsOptions } from '../testing/corpus.js';

const PATHS = { 'node-component': componentPath, 'node-raw': rawPath, 'node-native': nativePath, 'node-bindgen': bindgenPath };

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

// {ok: value} or {error: kind, message}. A QrError gives its WIT kind and its
// message (err.message, exactly as users see it); anything else
// (a TypeError, a GuestTrapError) is a host bug: it is reported under a name
// that can never equal an expected kind, so the diff shows it.
function attempt(render) {
  try {
    return { ok: render() };
  } catch (error) {
    if (error instanceof componentPath.QrError || error instanceof rawPath.QrError || error instanceof nativePath.QrError ||
        error instanceof bindgenPath.QrError) {
      return { error: error.kind, message: error.message };
    }
    return { error: `unexpected ${error?.name ?? typeof error}: ${error?.message ?? error}` };
  }
}

function outcome(api, text, options) {
  const png = attempt(() => api.png(text, options));
  const svg = attempt(() => api.svg(text, options));
  if (png.error !== undefined || svg.error !== undefined) {
    return png.error === svg.error && png.message === svg.message
      ? { error: png.error, message: png.message } : { error: 'png-svg-disagree' };
  }
  return {
    png_sha256: sha256(png.ok),
    png_bytes: png.ok.length,
    svg_sha256: sha256(Buffer.from(svg.ok, 'utf8')),
  };
}

const results = Object.fromEntries(Object.keys(PATHS).map((name) => [name, {}]));
for (const testCase of loadCases()) {
  // Built once per case and shared by both paths (the 50 MB text is 50 MB).
  const text = caseText(testCase);
  const options = jsOptions(testCase.options);
  for (const [name, api] of Object.entries(PATHS)) {
    results[name][testCase.id] = outcome(api, text, options);
  }
}
process.stdout.write(`${JSON.stringify({ paths: results })}\n`);

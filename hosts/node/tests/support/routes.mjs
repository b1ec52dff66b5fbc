// Which generator each input reaches, on every path (test/golden.test.js runs
// this in a fresh process): every wasm instance's exports and the native
// addon are wrapped before the package loads them, so that each call of a
// generating export is recorded under its WIT name (png, png-bytes, ...).
// Prints { path: [names called] } for the same sequence of calls on each
// path: texts and payloads of every bytes-like type, data URLs included.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Where lib/native.js loads the addon from in this repository (its ADDON_PATH;
// importing lib/native.js would load the addon before it is wrapped).
const ADDON_PATH = fileURLToPath(new URL(`../../native/qrglue.${process.platform}-${process.arch}.node`, import.meta.url));

const calls = [];
// The WIT name of a generating export, or null for anything else (memory,
// allocation, the probes): raw qr_png_bytes, jco's core
// "qrglue:qr/generator@0.2.0#png-bytes", wasm-bindgen's pngBytes, the addon's pngBytes.
function witName(name) {
  if (typeof name !== 'string') return null;
  const wit = name.startsWith('qr_') ? name.slice(3).replaceAll('_', '-')
    : name.startsWith('qrglue:qr/generator@') ? name.slice(name.indexOf('#') + 1)
      : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return /^(png|svg|matrix|text)(-bytes)?$/.test(wit) ? wit : null;
}

// A copy of `target` (a wasm instance's exports are frozen, so no Proxy) whose
// generating exports record their calls.
function recording(target) {
  return Object.fromEntries(Object.entries(target).map(([name, value]) => {
    const wit = witName(name);
    if (typeof value !== 'function' || wit === null) return [name, value];
    return [name, (...args) => {
      calls.push(wit);
      return value(...args);
    }];
  }));
}

const Instance = WebAssembly.Instance;
WebAssembly.Instance = function RecordingInstance(module, imports) {
  return { exports: recording(new Instance(module, imports).exports) };
};
const require = createRequire(import.meta.url);
require(ADDON_PATH);
require.cache[ADDON_PATH].exports = recording(require.cache[ADDON_PATH].exports);

const entries = { component: '../../index.js', raw: '../../raw.js', bindgen: '../../bindgen.js', native: '../../native.js' };
const result = {};
for (const [path, entry] of Object.entries(entries)) {
  const api = await import(entry);
  calls.length = 0;
  const bytes = Uint8Array.of(0x78);
  api.png('x');
  api.png(bytes);
  api.svg(bytes.slice().buffer);
  api.matrix(new DataView(bytes.slice().buffer));
  api.text(Buffer.from('x'), { style: 'ascii' });
  api.svg('x');
  api.matrix('x');
  api.text('x');
  api.pngDataUrl(Uint8Array.of(0xff));
  api.svgDataUrl('x');
  result[path] = [...calls];
}
console.log(JSON.stringify(result));

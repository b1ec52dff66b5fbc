// Patches jco's generated glue (gen/qrglue.js) after `jco transpile`, for
// the one per-call cost no jco option removes: `_debugLog` reads
// `globalThis.process.env.JCO_DEBUG` on every call, and the glue calls it
// about ten times per export call (each read of process.env is a property
// lookup through Node's environment interceptor, ~0.3 µs). The patch reads
// JCO_DEBUG once, when `instantiate()` runs; everything else is jco's output
// byte for byte. See UPSTREAM.md for the measurement and the proposal for jco.
//
// Strict: each patch names the exact lines jco 1.35.0 writes and must find
// them exactly once, or the build fails (jco's output changed: re-measure,
// then update or drop the patch). `unpatch` turns patched output back into
// jco's stock output, so tests/jco-patch.test.js can run both on the corpus.
//
// Usage: node scripts/patch-jco.mjs gen/qrglue.js   (rewrites it in place)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The jco version whose output these patches were written against (package.json pins it). */
export const JCO_VERSION = '1.35.0';

export const PATCHES = [
  {
    name: 'read JCO_DEBUG once per instantiate(), not on every _debugLog call',
    stock: [
      '  const _debugLog = (...args) => {',
      '    if (!globalThis?.process?.env?.JCO_DEBUG) { return; }',
      '    console.debug(...args);',
      '  };',
    ],
    patched: [
      '  const _jcoDebug = !!globalThis?.process?.env?.JCO_DEBUG; // qrglue patch-jco.mjs: read once',
      '  const _debugLog = (...args) => {',
      '    if (!_jcoDebug) { return; }',
      '    console.debug(...args);',
      '  };',
    ],
  },
];

function replaceOnce(source, from, to, what) {
  const needle = from.join('\n') + '\n';
  const first = source.indexOf(needle);
  if (first === -1 || source.indexOf(needle, first + 1) !== -1) {
    const found = first === -1 ? 'not found' : 'found more than once';
    throw new Error(
      `patch-jco: "${what}": the expected lines were ${found}; jco's output is not ` +
        `what jco ${JCO_VERSION} wrote. Re-measure and update scripts/patch-jco.mjs.\nExpected:\n${needle}`,
    );
  }
  return source.slice(0, first) + to.join('\n') + '\n' + source.slice(first + needle.length);
}

/** jco's stock output -> patched output; throws when any expected line differs. */
export function patch(source) {
  for (const p of PATCHES) source = replaceOnce(source, p.stock, p.patched, p.name);
  return source;
}

/** Patched output -> jco's stock output (for the test that runs both). */
export function unpatch(source) {
  for (const p of PATCHES) source = replaceOnce(source, p.patched, p.stock, p.name);
  return source;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/patch-jco.mjs gen/qrglue.js');
    process.exit(2);
  }
  const installed = JSON.parse(
    readFileSync(new URL('../node_modules/@bytecodealliance/jco/package.json', import.meta.url), 'utf8'),
  ).version;
  if (installed !== JCO_VERSION) {
    console.error(`patch-jco: jco ${installed} is installed, the patches are for ${JCO_VERSION}`);
    process.exit(1);
  }
  try {
    writeFileSync(file, patch(readFileSync(file, 'utf8')));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

// Shared by the tests (kept out of test/, which `node --test` runs as tests):
// the golden vectors (QRGLUE_VECTORS_DIR, default tests/vectors; see
// corpus.js) and the wasm paths side by side.
import { createHash } from 'node:crypto';
import * as componentPath from '../../index.js';
import * as rawPath from '../../raw.js';
import * as bindgenPath from '../../bindgen.js';
import * as probes from '../../probe.js';
import * as nativePath from '../../native.js';
import { native as nativeProbe } from '../../native-probe.js';
import { loadCases, loadExpected, caseText, caseBytes, caseInput, isBytesCase, jsOptions, jsSvgOptions } from './corpus.js';

export { caseText, caseBytes, caseInput, isBytesCase, jsOptions, jsSvgOptions };
export const cases = loadCases();
export const expected = loadExpected();

/** The reference URL (ref-02) of the benchmark and the acceptance check. */
export const REFERENCE_URL = 'https://www.reddit.com/r/rustjerk/top/?t=all';

export function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** The wasm paths (component, raw, bindgen) with the same shape: { name, api, probe }. */
export const paths = [
  { name: 'component', api: componentPath, probe: probes.component },
  { name: 'raw', api: rawPath, probe: probes.raw },
  { name: 'bindgen', api: bindgenPath, probe: probes.bindgen },
];

/**
 * Every path, native included: the one table the tests of every concern
 * iterate (golden, errors…). `paths` is its wasm part, for the tests that
 * look at guest memory or instances.
 */
export const everyPath = [...paths, { name: 'native', api: nativePath, probe: nativeProbe }];

/**
 * The default scale, dark, light and symbol options as the wasm-bindgen
 * exports and the addon take them after quiet-zone: no scale, opaque black
 * on opaque white as 0xRRGGBBAA, then micro, version, minVersion, mask,
 * boostEc, eci (the automatic symbol). Tests that call those exports directly
 * spread it.
 */
export const DEFAULT_LOOK = Object.freeze([undefined, 0x000000ff, 0xffffffff, false, undefined, undefined, undefined, false, false]);

/** Runs `fn` and returns the thrown error (fails if nothing is thrown). */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an exception, none was thrown');
}

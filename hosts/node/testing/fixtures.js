// Shared by the tests (kept out of test/, which `node --test` runs as tests):
// the golden vectors of tests/vectors and the two paths side by side.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import * as componentPath from '../index.js';
import * as rawPath from '../raw.js';
import * as probes from '../probe.js';

const vectorsDir = new URL('../../../tests/vectors/', import.meta.url);
export const cases = JSON.parse(readFileSync(new URL('cases.json', vectorsDir), 'utf8')).cases;
export const expected = JSON.parse(readFileSync(new URL('expected.json', vectorsDir), 'utf8'));

/** The reference URL (ref-02) of the benchmark and the acceptance check. */
export const REFERENCE_URL = 'https://www.reddit.com/r/rustjerk/top/?t=all';

/** WIT option names of cases.json -> this package's option names. */
export function jsOptions(witOptions) {
  const names = { 'ec-level': 'ecLevel', 'min-size': 'minSize', 'quiet-zone': 'quietZone' };
  return Object.fromEntries(Object.entries(witOptions).map(([name, value]) => {
    if (!(name in names)) throw new Error(`unknown option ${name} in cases.json`);
    return [names[name], value];
  }));
}

export function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** Both paths with the same shape: { name, api, probe }. */
export const paths = [
  { name: 'component', api: componentPath, probe: probes.component },
  { name: 'raw', api: rawPath, probe: probes.raw },
];

/** Runs `fn` and returns the thrown error (fails if nothing is thrown). */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an exception, none was thrown');
}

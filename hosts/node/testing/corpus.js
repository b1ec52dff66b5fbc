// The conformance corpus (tests/vectors, see tests/conformance/README.md), read
// the same way by the tests and by conformance/runner.mjs: one place decides
// where the corpus lives, how a case's text is built, and how its WIT option
// names map to this package's names.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The corpus folder: QRGLUE_VECTORS_DIR if set, else tests/vectors. A relative
 * QRGLUE_VECTORS_DIR is taken from the repo root, because the runner runs from
 * the root and `node --test` from hosts/node.
 */
export function vectorsDir() {
  const dir = process.env.QRGLUE_VECTORS_DIR || 'tests/vectors';
  return isAbsolute(dir) ? dir : resolve(REPO_ROOT, dir);
}

function readJson(name) {
  return JSON.parse(readFileSync(resolve(vectorsDir(), name), 'utf8'));
}

/** cases.json's cases: [{ id, text | text_repeat: { unit, count }, options }]. */
export function loadCases() {
  return readJson('cases.json').cases;
}

/** expected.json: id -> { png_sha256, png_bytes, svg_sha256 } or { error: kind }. */
export function loadExpected() {
  return readJson('expected.json');
}

/**
 * A case's text, exactly as cases.json gives it: JSON.parse keeps lone
 * surrogates ("\ud800") as lone UTF-16 units, which the API must answer with
 * invalid-text. `text_repeat` builds the 1 MB / 50 MB texts in memory only.
 */
export function caseText(testCase) {
  if (typeof testCase.text === 'string') return testCase.text;
  const repeat = testCase.text_repeat;
  if (repeat !== undefined && typeof repeat.unit === 'string' && Number.isInteger(repeat.count)) {
    return repeat.unit.repeat(repeat.count);
  }
  throw new Error(`case ${testCase.id}: neither "text" nor "text_repeat" {unit, count}`);
}

const JS_OPTION_NAMES = { 'ec-level': 'ecLevel', 'min-size': 'minSize', 'quiet-zone': 'quietZone' };

/**
 * WIT option names of cases.json -> this package's option names. Only the
 * options present are passed, so a missing one exercises the package default.
 */
export function jsOptions(witOptions = {}) {
  return Object.fromEntries(Object.entries(witOptions).map(([name, value]) => {
    if (!(name in JS_OPTION_NAMES)) throw new Error(`unknown option ${name} in cases.json`);
    return [JS_OPTION_NAMES[name], value];
  }));
}

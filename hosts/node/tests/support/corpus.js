// The conformance corpus (tests/vectors, see tests/conformance/README.md), read
// the same way by the tests and by conformance/runner.mjs: one place decides
// where the corpus lives, how a case's text (or payload) is built, how its WIT option
// names map to this package's names, and what a case's outcome is.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

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

/** cases.json's cases: [{ id, text | text_repeat: { unit, count } | data_hex, options }]. */
export function loadCases() {
  return readJson('cases.json').cases;
}

/**
 * expected.json: id -> { png_sha256, png_bytes, svg_sha256, matrix_sha256,
 * text_sha256: { style: digest } } or { error: kind, message }.
 */
export function loadExpected() {
  return readJson('expected.json');
}

/**
 * A case's text, exactly as cases.json gives it: JSON.parse keeps lone
 * surrogates ("\ud800") as lone UTF-16 units, which the API must answer with
 * invalid-text. `text_repeat` builds the 1 MB / 50 MB texts in memory only.
 * A `data_hex` case has no text: it throws (caseInput takes every case).
 */
export function caseText(testCase) {
  if (typeof testCase.text === 'string') return testCase.text;
  const repeat = testCase.text_repeat;
  if (repeat !== undefined && typeof repeat.unit === 'string' && Number.isInteger(repeat.count)) {
    return repeat.unit.repeat(repeat.count);
  }
  if (typeof testCase.data_hex === 'string') throw new Error(`case ${testCase.id}: a binary payload (data_hex), not a text`);
  throw new Error(`case ${testCase.id}: neither "text", "text_repeat" {unit, count} nor "data_hex"`);
}

/** Whether a case is a binary payload (`data_hex`) rather than a text. */
export function isBytesCase(testCase) {
  return typeof testCase.data_hex === 'string';
}

/**
 * A `data_hex` case's payload: the hex decoded into a plain Uint8Array, the
 * package's bytes type (lower-case hex, two digits a byte, "" for none).
 */
export function caseBytes(testCase) {
  const hex = testCase.data_hex;
  if (typeof hex !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(hex)) {
    throw new Error(`case ${testCase.id}: data_hex must be lower-case hex, two digits a byte`);
  }
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** What a case hands the API: its text (caseText), or for a `data_hex` case its bytes (caseBytes). */
export function caseInput(testCase) {
  return isBytesCase(testCase) ? caseBytes(testCase) : caseText(testCase);
}

// The colours are hex strings in cases.json and in this API alike, micro and
// boost-ec and eci booleans, version, min-version and mask integers: passed as they
// are, so the package's own checks are what the corpus tests. The symbol
// options sit beside the others in a case, as they do in this API.
const JS_OPTION_NAMES = {
  'ec-level': 'ecLevel', 'min-size': 'minSize', 'quiet-zone': 'quietZone', scale: 'scale', dark: 'dark', light: 'light',
  micro: 'micro', version: 'version', 'min-version': 'minVersion', mask: 'mask', 'boost-ec': 'boostEc', eci: 'eci',
  'view-box-only': 'viewBoxOnly', title: 'title', class: 'class',
};

/** The SVG options' names in this package: svg() (and svgDataUrl) take them, the other outputs do not. */
export const SVG_OPTION_NAMES = Object.freeze(['viewBoxOnly', 'title', 'class']);

/** `options` without the SVG options: what png, matrix and text take of a case's options. */
export function withoutSvgOptions(options) {
  return Object.fromEntries(Object.entries(options).filter(([name]) => !SVG_OPTION_NAMES.includes(name)));
}

/**
 * WIT option names of cases.json -> this package's option names, for
 * png, matrix and text: the SVG options (view-box-only, title, class) are
 * left out, as those calls do not take them (jsSvgOptions keeps them). Only
 * the options present are passed, so a missing one exercises the package
 * default.
 */
export function jsOptions(witOptions = {}) {
  return withoutSvgOptions(jsSvgOptions(witOptions));
}

/** jsOptions for svg and svgDataUrl: every option of the case, the SVG options included. */
export function jsSvgOptions(witOptions = {}) {
  return Object.fromEntries(Object.entries(witOptions).map(([name, value]) => {
    if (!(name in JS_OPTION_NAMES)) throw new Error(`unknown option ${name} in cases.json`);
    return [JS_OPTION_NAMES[name], value];
  }));
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The README's matrix digest: sha256 of the width as a little-endian u32, then the packed modules. */
export function matrixSha256({ width, modules }) {
  const widthBytes = Buffer.alloc(4);
  widthBytes.writeUInt32LE(width);
  return sha256(Buffer.concat([widthBytes, modules]));
}

/**
 * One case's outcome through `api` (an entry point of the package: png, svg,
 * matrix, text, QrError, TEXT_STYLES) for `input` (caseInput: a text or a
 * payload), as tests/conformance/README.md
 * defines it: the digests of every output (text in every style), or the
 * error that every output gives, kind and message exactly as users see
 * them; outputs that fail differently are "outputs-disagree", which never
 * equals an expected outcome. Anything thrown that is not a QrError (a
 * TypeError, a GuestTrapError) is a host bug: it is reported under a name
 * that can never equal an expected kind, so the diff shows it.
 */
export function outcome(api, input, options) {
  const attempt = (render) => {
    try {
      return { ok: render() };
    } catch (error) {
      if (error instanceof api.QrError) return { error: error.kind, message: error.message };
      return { error: `unexpected ${error?.name ?? typeof error}: ${error?.message ?? error}` };
    }
  };
  // The SVG options go to svg alone (only the SVG digest depends on them):
  // `options` is jsSvgOptions's.
  const others = withoutSvgOptions(options);
  const png = attempt(() => api.png(input, others));
  const svg = attempt(() => api.svg(input, options));
  const matrix = attempt(() => api.matrix(input, others));
  const texts = api.TEXT_STYLES.map((style) => [style, attempt(() => api.text(input, { ...others, style }))]);
  const [first, ...rest] = [png, svg, matrix, ...texts.map(([, drawn]) => drawn)];
  if (first.error === undefined && rest.every((other) => other.error === undefined)) {
    return {
      png_sha256: sha256(png.ok),
      png_bytes: png.ok.length,
      svg_sha256: sha256(Buffer.from(svg.ok, 'utf8')),
      matrix_sha256: matrixSha256(matrix.ok),
      text_sha256: Object.fromEntries(texts.map(([style, drawn]) => [style, sha256(Buffer.from(drawn.ok, 'utf8'))])),
    };
  }
  // `first` is then { error, message } (or { error } alone for a host bug), as the outcome.
  return first.error !== undefined && rest.every((other) => other.error === first.error && other.message === first.message)
    ? first : { error: 'outputs-disagree' };
}

// The conformance runner (conformance/runner.mjs) as tests/conformance/run.py
// calls it: its JSON form, QRGLUE_VECTORS_DIR, every case form (text,
// text_repeat, data_hex), defaults for
// missing options, and agreement with expected.json on the whole corpus; and
// the outcome it reports (tests/support/corpus.js) when outputs disagree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { cases, expected, sha256, REFERENCE_URL } from './support/fixtures.js';
import { matrixSha256, outcome } from './support/corpus.js';
import { QrError, TEXT_STYLES } from '../lib/common.js';

const runner = fileURLToPath(new URL('../conformance/runner.mjs', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

async function runRunner(env) {
  const { stdout } = await promisify(execFile)(process.execPath, [runner],
    { cwd: repoRoot, env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
  const output = JSON.parse(stdout);
  assert.deepEqual(Object.keys(output), ['paths']);
  assert.deepEqual(Object.keys(output.paths).sort(), ['node-bindgen', 'node-component', 'node-native', 'node-raw']);
  return output.paths;
}

test('runner: every corpus case on every path, equal to expected.json (kinds and messages)', async () => {
  const results = await runRunner({});
  for (const [path, outcomes] of Object.entries(results)) {
    assert.deepEqual(Object.keys(outcomes).sort(), cases.map((c) => c.id).sort(), path);
    for (const { id } of cases) assert.deepEqual(outcomes[id], expected[id], `${path} ${id}`);
  }
});

test('runner: QRGLUE_VECTORS_DIR, text_repeat, data_hex, lone surrogates, missing options take the defaults', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'qrglue-corpus-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const corpus = [
    { id: 'reference-no-options', text: REFERENCE_URL },
    { id: 'reference-partial-options', text: REFERENCE_URL, options: { 'ec-level': 'low' } },
    { id: 'surrogates-repeated', text_repeat: { unit: '\ud800', count: 3 } },
    { id: 'surrogate-escaped', text: 'a\udfffb' },
    { id: 'too-long-repeated', text_repeat: { unit: '\u00e9', count: 3545 } }, // 7090 bytes
    { id: 'quiet-zone-17', text: 'x', options: { 'quiet-zone': 17 } },
    { id: 'empty', text: '' },
    // data_hex: the payload's bytes, hex-decoded (the reference URL's UTF-8 is the reference URL's code).
    { id: 'reference-as-bytes', data_hex: Buffer.from(REFERENCE_URL).toString('hex') },
    { id: 'bytes-not-utf8', data_hex: 'eda080', options: { 'quiet-zone': 17 } },
    { id: 'bytes-empty', data_hex: '', options: { 'min-size': 0 } },
    { id: 'bytes-too-long', data_hex: 'ff'.repeat(7090) },
  ];
  // JSON.stringify writes lone surrogates as \ud800 escapes, as cases.json does.
  writeFileSync(join(dir, 'cases.json'), JSON.stringify({ cases: corpus }));
  const results = await runRunner({ QRGLUE_VECTORS_DIR: dir });
  const want = {
    'reference-no-options': expected['ref-02'],
    'reference-partial-options': expected['ref-02'],
    'surrogates-repeated': { error: 'invalid-text', message: 'text contains a lone surrogate (not encodable as UTF-8)' },
    'surrogate-escaped': { error: 'invalid-text', message: 'text contains a lone surrogate (not encodable as UTF-8)' },
    'too-long-repeated': { error: 'data-too-long', message: 'text does not fit in any QR code: it is over 7089 bytes, the most one holds' },
    'quiet-zone-17': { error: 'invalid-options', message: 'quiet-zone must be within 0..=16, got 17' },
    empty: { error: 'empty-text', message: 'text is empty' },
    'reference-as-bytes': expected['ref-02'],
    'bytes-not-utf8': { error: 'invalid-options', message: 'quiet-zone must be within 0..=16, got 17' },
    'bytes-empty': { error: 'empty-text', message: 'text is empty' },
    'bytes-too-long': { error: 'data-too-long', message: 'text does not fit in any QR code: it is over 7089 bytes, the most one holds' },
  };
  for (const [path, outcomes] of Object.entries(results)) assert.deepEqual(outcomes, want, path);
});

test('runner: a case whose data_hex is not hex is a failure (non-zero exit)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'qrglue-corpus-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'cases.json'), JSON.stringify({ cases: [{ id: 'odd', data_hex: 'abc' }] }));
  await assert.rejects(runRunner({ QRGLUE_VECTORS_DIR: dir }), (error) => error.code !== 0 && /odd: data_hex/.test(error.stderr));
});

test('runner: a corpus folder without cases.json is a failure (non-zero exit)', async () => {
  await assert.rejects(runRunner({ QRGLUE_VECTORS_DIR: join(tmpdir(), 'qrglue-no-such-corpus') }),
    (error) => error.code !== 0 && /cases\.json/.test(error.stderr));
});

test('outcome reports outputs disagreement', () => {
  const matrix = Object.freeze({ width: 21, modules: new Uint8Array(56) });
  const fails = (kind, message) => () => { throw new QrError(kind, message); };
  // A fake entry point: every output succeeds unless overridden.
  const outputs = (overrides = {}) => ({
    QrError, TEXT_STYLES,
    png: () => new Uint8Array([1, 2, 3]), svg: () => '<svg/>', matrix: () => matrix,
    text: (text, { style }) => `drawn in ${style}`,
    ...overrides,
  });
  const widthLe = Buffer.from([21, 0, 0, 0]); // the width as a little-endian u32
  assert.equal(matrixSha256(matrix), sha256(Buffer.concat([widthLe, Buffer.alloc(56)])));
  assert.deepEqual(outcome(outputs(), 'x', { minSize: 5 }), {
    png_sha256: sha256(new Uint8Array([1, 2, 3])), png_bytes: 3, svg_sha256: sha256('<svg/>'),
    matrix_sha256: sha256(Buffer.concat([widthLe, Buffer.alloc(56)])),
    text_sha256: Object.fromEntries(TEXT_STYLES.map((style) => [style, sha256(`drawn in ${style}`)])),
  });
  const every = ['png', 'svg', 'matrix', 'text'];
  const all = (render) => Object.fromEntries(every.map((name) => [name, render]));
  assert.deepEqual(outcome(outputs(all(fails('empty-text'))), '', {}), { error: 'empty-text', message: 'text is empty' });
  // Any one output that does not give the others' answer is a disagreement.
  for (const odd of every) {
    assert.deepEqual(outcome(outputs({ [odd]: fails('empty-text') }), '', {}), { error: 'outputs-disagree' }, odd);
    assert.deepEqual(outcome(outputs({ ...all(fails('empty-text')), [odd]: fails('data-too-long') }), '', {}),
      { error: 'outputs-disagree' }, odd);
    // The same kind with another message is a disagreement too.
    assert.deepEqual(outcome(outputs({ ...all(fails('invalid-options', 'a')), [odd]: fails('invalid-options', 'b') }), '', {}),
      { error: 'outputs-disagree' }, odd);
  }
  // Text in one style failing alone is a disagreement.
  const oneStyleFails = outputs({ text: (text, { style }) => (style === 'ascii' ? fails('empty-text')() : 'drawn') });
  assert.deepEqual(outcome(oneStyleFails, 'x', {}), { error: 'outputs-disagree' });
  // Anything but a QrError is a host bug, named so that it never equals an expected kind.
  const crashes = () => { throw new TypeError('boom'); };
  assert.deepEqual(outcome(outputs(all(crashes)), 'x', {}), { error: 'unexpected TypeError: boom' });
  assert.deepEqual(outcome(outputs({ svg: crashes }), 'x', {}), { error: 'outputs-disagree' });
});

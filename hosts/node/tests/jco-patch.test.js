// scripts/patch-jco.mjs: the patched glue (gen/qrglue.js, what the package
// ships) and jco's stock output (recovered with unpatch, which checks every
// line) give the same result for every case of the corpus, PNG and SVG (a
// data_hex case through png-bytes and svg-bytes), equal to expected.json; the patch refuses output it does not recognise; and
// JCO_DEBUG still works when set before instantiate().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { patch, unpatch, PATCHES } from '../scripts/patch-jco.mjs';
import { checkInput, resolveOptions, witRecord } from '../lib/common.js';
import { cases, expected, caseInput, jsOptions, jsSvgOptions, sha256 } from './support/fixtures.js';

const genUrl = new URL('../gen/qrglue.js', import.meta.url);
const patchedSource = readFileSync(genUrl, 'utf8');
const stockSource = unpatch(patchedSource);
const coreModule = new WebAssembly.Module(readFileSync(new URL('../gen/qrglue.core.wasm', import.meta.url)));

const dir = mkdtempSync(path.join(tmpdir(), 'qrglue-jco-stock-'));
const stockFile = path.join(dir, 'qrglue.stock.js');
writeFileSync(stockFile, stockSource);
const { instantiate: instantiateStock } = await import(pathToFileURL(stockFile).href);
const { instantiate: instantiatePatched } = await import(genUrl.href);
rmSync(dir, { recursive: true, force: true });

test('gen/qrglue.js is patched, and patch(stock) gives it back exactly', () => {
  assert.notEqual(stockSource, patchedSource);
  assert.equal(patch(stockSource), patchedSource);
  for (const p of PATCHES) assert.ok(patchedSource.includes(p.patched.join('\n') + '\n'), p.name);
});

test('the patch fails on output it does not expect (a changed line, or already patched)', () => {
  const changed = stockSource.replace('process?.env?.JCO_DEBUG) { return; }', 'process?.env?.JCO_DEBUG) return;');
  assert.throws(() => patch(changed), /expected lines were not found/);
  assert.throws(() => patch(patchedSource), /expected lines were not found/);
  const twice = stockSource + PATCHES[0].stock.join('\n') + '\n';
  assert.throws(() => patch(twice), /found more than once/);
});

// What a call gives: the bytes (or string), or the error's class and payload.
function outcome(call) {
  try {
    const value = call();
    return { value: typeof value === 'string' ? value : Buffer.from(value).toString('hex') };
  } catch (error) {
    return { error: error.constructor.name, payload: JSON.stringify(error.payload), message: error.message };
  }
}

test('stock and patched glue agree on every corpus case, and equal expected.json', () => {
  const stock = instantiateStock(() => coreModule, {});
  const patched = instantiatePatched(() => coreModule, {});
  let rendered = 0;
  let payloads = 0;
  for (const testCase of cases) {
    let input = caseInput(testCase);
    let wit;
    let svgWit;
    try {
      // The package's own checks first (lone surrogates and over-long texts
      // never reach the guest), as lib/component.js does.
      input = checkInput(input);
      // (No guest check before a host-side refusal: such a case is skipped here.)
      // The record as lib/component.js lowers it (symbol none for the automatic symbol).
      wit = witRecord(resolveOptions(jsOptions(testCase.options)));
      // svg's third argument, the WIT svg-options record (the case's, or the defaults).
      const { viewBoxOnly = false, title, class: className } = jsSvgOptions(testCase.options);
      svgWit = { viewBoxOnly, title, class: className };
    } catch {
      continue;
    }
    const want = expected[testCase.id];
    // A text through the text call, a payload through its *-bytes twin.
    const isText = typeof input === 'string';
    if (!isText) payloads++;
    for (const op of ['png', 'svg']) {
      const call = isText ? op : `${op}Bytes`;
      const args = op === 'svg' ? [input, wit, svgWit] : [input, wit];
      const a = outcome(() => stock.generator[call](...args));
      const b = outcome(() => patched.generator[call](...args));
      assert.deepEqual(b, a, `${testCase.id} ${op}`);
      if (want.error !== undefined) {
        assert.equal(JSON.parse(a.payload).tag, want.error, `${testCase.id} ${op}`);
      } else {
        const bytes = op === 'png' ? Buffer.from(a.value, 'hex') : Buffer.from(a.value, 'utf8');
        assert.equal(sha256(bytes), want[`${op}_sha256`], `${testCase.id} ${op}`);
        rendered++;
      }
    }
  }
  assert.ok(rendered >= 100, `${rendered} renders`);
  assert.ok(payloads >= 20, `${payloads} payloads`);
  for (const glue of [stock, patched]) {
    assert.equal(glue.probe.noop(), undefined);
    assert.deepEqual(outcome(() => glue.probe.produce(5)), outcome(() => stock.probe.produce(5)));
  }
});

test('JCO_DEBUG set before instantiate() still turns on jco\'s debug log', () => {
  const logged = [];
  const original = console.debug;
  const before = process.env.JCO_DEBUG;
  console.debug = (...args) => logged.push(args[0]);
  try {
    process.env.JCO_DEBUG = '1';
    const debugging = instantiatePatched(() => coreModule, {});
    delete process.env.JCO_DEBUG;
    debugging.probe.noop();
    assert.ok(logged.some((line) => String(line).includes('function="noop"')), logged.join('\n'));
    logged.length = 0;
    instantiatePatched(() => coreModule, {}).probe.noop();
    assert.deepEqual(logged, []);
  } finally {
    console.debug = original;
    if (before === undefined) delete process.env.JCO_DEBUG;
    else process.env.JCO_DEBUG = before;
  }
});

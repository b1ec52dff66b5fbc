// Every text reads back as itself in a QR reader, on every Node path.
//
// The reader is zxing-cpp (zxing-wasm, its WebAssembly build) and what is
// compared is its decoded *text*, what a person's phone shows, not the raw
// bytes: a symbol that declares Shift-JIS Kanji for UTF-8 bytes decodes to
// the right bytes and the wrong text (guest/core/UPSTREAM.md). Every path
// gives the same PNG (asserted here too), so each distinct PNG is read once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import * as native from '../native.js';
import { paths, cases, expected, caseText, jsOptions, sha256 } from '../testing/fixtures.js';

// The reader's .wasm from node_modules (its default is a CDN download).
const wasmFile = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
prepareZXingModule({ overrides: { wasmBinary: readFileSync(wasmFile).buffer }, fireImmediately: true });

const allPaths = [...paths, { name: 'native', api: native }];

/** The text zxing-cpp shows for the one QR code in `png` (QR codes only). */
async function readerText(png) {
  const results = await readBarcodes(new Uint8Array(png), { formats: ['QRCode'] });
  assert.equal(results.length, 1, `${results.length} codes read`);
  assert.ok(results[0].isValid);
  return results[0].text;
}

/** Valid Unicode (no lone surrogate) without control characters (a reader's text is for display). */
const readable = (text) => text.isWellFormed() && !/\p{Cc}/u.test(text);

// The corpus images of readable texts; the 4096-pixel images are left to the
// smaller cases of the same texts (decoding 16 MP adds seconds, reads the same).
const readbackCases = cases.filter((c) => expected[c.id].png_sha256 !== undefined && readable(caseText(c))
  && (c.options?.['min-size'] ?? 200) <= 1024);

test('the corpus has the scripts that once read as mojibake', () => {
  const ids = new Set(readbackCases.map((c) => c.id));
  for (const id of ['script-zh-sentence', 'script-ja-kanji', 'script-ja-kana', 'script-ja-quotes',
    'script-ja-sentence', 'unicode-supplementary-planes', 'unicode-cjk']) {
    assert.ok(ids.has(id), id);
  }
  assert.ok(readbackCases.length > 150, `${readbackCases.length} cases`);
});

test('every readable corpus text reads back as itself, on every path', async () => {
  for (const testCase of readbackCases) {
    const text = caseText(testCase);
    const pngs = allPaths.map(({ api }) => Buffer.from(api.png(text, jsOptions(testCase.options))));
    for (const [i, png] of pngs.entries()) {
      assert.equal(sha256(png), expected[testCase.id].png_sha256, `${testCase.id} on ${allPaths[i].name}`);
    }
    assert.equal(await readerText(pngs[0]), text, testCase.id);
  }
});

// Scripts a phone meets every day, by code point range, mixed with ASCII
// letters, digits, spaces and punctuation.
const SCRIPTS = [
  [0x4e00, 0x9fff], [0x3041, 0x3096], [0x30a1, 0x30fa], [0x3001, 0x3011], [0xff01, 0xff5e], [0xac00, 0xd7a3],
  [0x0410, 0x044f], [0x0391, 0x03a1], [0x03b1, 0x03c9], [0x0621, 0x063a], [0x05d0, 0x05ea], [0x0905, 0x0939],
  [0x0e01, 0x0e30], [0x00c0, 0x00ff], [0x1f600, 0x1f64f], [0x2600, 0x26ff],
];
const char = fc.oneof(
  fc.constantFrom(...'abcXYZ0123456789 .,:/?-_'),
  ...SCRIPTS.map(([lo, hi]) => fc.integer({ min: lo, max: hi }).map((cp) => String.fromCodePoint(cp))),
);
const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 4, maxLength: 30 });
const text = fc.array(fc.oneof(char, digits), { minLength: 1, maxLength: 60 }).map((parts) => parts.join(''))
  .filter((t) => /^\P{Cn}*$/u.test(t));
const level = fc.constantFrom('low', 'medium', 'quartile', 'high');

test('texts drawn from many scripts read back as themselves', async () => {
  await fc.assert(fc.asyncProperty(text, level, async (t, ecLevel) => {
    const png = Buffer.from(native.png(t, { ecLevel }));
    for (const { name, api } of paths) {
      assert.ok(png.equals(Buffer.from(api.png(t, { ecLevel }))), name);
    }
    assert.equal(await readerText(png), t);
  }), { numRuns: 1500, seed: 20261124 });
});

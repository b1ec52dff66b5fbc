// Golden vectors: every case of the corpus (QRGLUE_VECTORS_DIR, default
// tests/vectors) gives the digests (or the error kind and message) of
// expected.json, on every path (fixtures' everyPath), for PNG and SVG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cases, expected, caseText, jsOptions, sha256, everyPath, thrown } from '../testing/fixtures.js';

test('the vectors cover every case of expected.json', () => {
  assert.ok(cases.length >= 30);
  assert.deepEqual(cases.map((c) => c.id).sort(), Object.keys(expected).sort());
});

for (const { name, api } of everyPath) {
  for (const testCase of cases) {
    const want = expected[testCase.id];
    test(`${name}: ${testCase.id}`, () => {
      const text = caseText(testCase);
      const options = jsOptions(testCase.options);
      if (want.error !== undefined) {
        for (const render of [api.png, api.svg]) {
          const error = thrown(() => render(text, options));
          assert.ok(error instanceof api.QrError, `${error}`);
          assert.deepEqual({ kind: error.kind, message: error.message }, { kind: want.error, message: want.message });
        }
        return;
      }
      const png = api.png(text, options);
      assert.ok(png instanceof Uint8Array);
      assert.equal(png.length, want.png_bytes);
      assert.equal(sha256(png), want.png_sha256);
      const svg = api.svg(text, options);
      assert.equal(typeof svg, 'string');
      assert.ok(svg.startsWith('<'), svg.slice(0, 40));
      assert.equal(sha256(Buffer.from(svg, 'utf8')), want.svg_sha256);
    });
  }
}

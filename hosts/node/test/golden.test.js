// Golden vectors: every case of the corpus (QRGLUE_VECTORS_DIR, default
// tests/vectors) gives the digests (or the error kind and message) of
// expected.json, on every path (fixtures' everyPath), for PNG, SVG, the
// matrix and the text in every style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cases, expected, caseText, jsOptions, sha256, everyPath, thrown } from '../testing/fixtures.js';
import { matrixSha256 } from '../testing/corpus.js';

test('the vectors cover every case of expected.json', () => {
  assert.ok(cases.length >= 30);
  assert.deepEqual(cases.map((c) => c.id).sort(), Object.keys(expected).sort());
});

for (const { name, api } of everyPath) {
  // Every output of this path, by name; text once per style.
  const outputs = {
    png: api.png,
    svg: api.svg,
    matrix: api.matrix,
    ...Object.fromEntries(api.TEXT_STYLES.map((style) => [`text ${style}`, (text, options) => api.text(text, { ...options, style })])),
  };

  for (const testCase of cases) {
    const want = expected[testCase.id];
    test(`${name}: ${testCase.id}`, () => {
      const text = caseText(testCase);
      const options = jsOptions(testCase.options);
      if (want.error !== undefined) {
        for (const [output, render] of Object.entries(outputs)) {
          const error = thrown(() => render(text, options));
          assert.ok(error instanceof api.QrError, `${output}: ${error}`);
          assert.deepEqual({ kind: error.kind, message: error.message }, { kind: want.error, message: want.message }, output);
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

      const matrix = api.matrix(text, options);
      assert.ok(Object.isFrozen(matrix));
      assert.deepEqual(Object.keys(matrix), ['width', 'modules']);
      assert.ok(matrix.modules instanceof Uint8Array);
      assert.equal(matrix.modules.length, Math.ceil((matrix.width * matrix.width) / 8));
      assert.equal(matrixSha256(matrix), want.matrix_sha256);
      assert.deepEqual(Object.keys(want.text_sha256).sort(), [...api.TEXT_STYLES].sort());
      for (const style of api.TEXT_STYLES) {
        const drawn = api.text(text, { ...options, style });
        assert.equal(typeof drawn, 'string');
        assert.equal(sha256(Buffer.from(drawn, 'utf8')), want.text_sha256[style], style);
      }
      // No style is half-blocks.
      assert.equal(sha256(Buffer.from(api.text(text, options), 'utf8')), want.text_sha256['half-blocks']);
    });
  }
}

// pngDataUrl and svgDataUrl (one implementation, lib/common.js) hold exactly
// png()'s and svg()'s bytes, on every path, coloured and scaled too; an
// error is png()'s own.
for (const { name, api } of everyPath) {
  test(`${name}: data URLs hold exactly the PNG and the SVG`, () => {
    const idOf = (c) => c.id;
    const ids = ['ref-02', 'utf8-cjk-emoji', 'opt-colors-and-scale-cjk', 'opt-light-transparent', 'opt-scale-20-v40-quiet-16'];
    const chosen = cases.filter((c) => ids.includes(idOf(c)));
    assert.equal(chosen.length, ids.length);
    for (const testCase of chosen) {
      const [text, options] = [caseText(testCase), jsOptions(testCase.options)];
      const png = api.pngDataUrl(text, options);
      assert.match(png, /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/);
      const pngBytes = Buffer.from(png.slice('data:image/png;base64,'.length), 'base64');
      assert.equal(sha256(pngBytes), expected[testCase.id].png_sha256, testCase.id);
      const svg = api.svgDataUrl(text, options);
      assert.match(svg, /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+={0,2}$/);
      const svgText = Buffer.from(svg.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
      assert.equal(svgText, api.svg(text, options), testCase.id);
      assert.equal(sha256(Buffer.from(svgText, 'utf8')), expected[testCase.id].svg_sha256, testCase.id);
    }
    for (const render of [api.pngDataUrl, api.svgDataUrl]) {
      const error = thrown(() => render('hello', { dark: 'red' }));
      assert.ok(error instanceof api.QrError);
      assert.equal(error.message, 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"');
      assert.equal(thrown(() => render('')).kind, 'empty-text');
    }
  });
}

// Golden vectors: every case of the corpus (QRGLUE_VECTORS_DIR, default
// tests/vectors; a data_hex case as a Uint8Array) gives the digests (or the
// error kind and message) of expected.json, on every path (fixtures'
// everyPath), for PNG, SVG, the matrix and the text in every style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  cases, expected, caseInput, caseText, isBytesCase, jsOptions, jsSvgOptions, sha256, everyPath, thrown,
} from './support/fixtures.js';
import { matrixSha256 } from './support/corpus.js';

test('the vectors cover every case of expected.json', () => {
  assert.ok(cases.length >= 30);
  assert.deepEqual(cases.map((c) => c.id).sort(), Object.keys(expected).sort());
});

// A case's options without the SVG options: what png, matrix and text take.
const withoutSvg = ({ viewBoxOnly, title, class: className, ...others }) => others;

for (const { name, api } of everyPath) {
  // Every output of this path, by name; text once per style.
  // svg takes the SVG options too (jsSvgOptions), the others not (jsOptions).
  const outputs = {
    png: (text, options) => api.png(text, withoutSvg(options)),
    svg: api.svg,
    matrix: (text, options) => api.matrix(text, withoutSvg(options)),
    ...Object.fromEntries(api.TEXT_STYLES.map((style) => [`text ${style}`, (text, options) => api.text(text, { ...withoutSvg(options), style })])),
  };

  for (const testCase of cases) {
    const want = expected[testCase.id];
    test(`${name}: ${testCase.id}`, () => {
      const text = caseInput(testCase);
      const options = jsOptions(testCase.options);
      const svgOptions = jsSvgOptions(testCase.options);
      if (want.error !== undefined) {
        for (const [output, render] of Object.entries(outputs)) {
          const error = thrown(() => render(text, svgOptions));
          assert.ok(error instanceof api.QrError, `${output}: ${error}`);
          assert.deepEqual({ kind: error.kind, message: error.message }, { kind: want.error, message: want.message }, output);
        }
        return;
      }
      const png = api.png(text, options);
      assert.ok(png instanceof Uint8Array);
      assert.equal(png.length, want.png_bytes);
      assert.equal(sha256(png), want.png_sha256);
      const svg = api.svg(text, svgOptions);
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
    // Binary payloads too (a data URL takes what png() and svg() take).
    const ids = ['ref-02', 'utf8-cjk-emoji', 'opt-colors-and-scale-cjk', 'opt-light-transparent', 'opt-scale-20-v40-quiet-16',
      'bytes-not-utf8', 'bytes-all-256', 'bytes-styled', 'svg-all', 'svg-bytes-payload'];
    const chosen = cases.filter((c) => ids.includes(idOf(c)));
    assert.equal(chosen.length, ids.length);
    for (const testCase of chosen) {
      const [text, options, svgOptions] = [caseInput(testCase), jsOptions(testCase.options), jsSvgOptions(testCase.options)];
      const png = api.pngDataUrl(text, options);
      assert.match(png, /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/);
      const pngBytes = Buffer.from(png.slice('data:image/png;base64,'.length), 'base64');
      assert.equal(sha256(pngBytes), expected[testCase.id].png_sha256, testCase.id);
      const svg = api.svgDataUrl(text, svgOptions);
      assert.match(svg, /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+={0,2}$/);
      const svgText = Buffer.from(svg.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
      assert.equal(svgText, api.svg(text, svgOptions), testCase.id);
      assert.equal(sha256(Buffer.from(svgText, 'utf8')), expected[testCase.id].svg_sha256, testCase.id);
    }
    for (const render of [api.pngDataUrl, api.svgDataUrl]) {
      const error = thrown(() => render('hello', { dark: 'red' }));
      assert.ok(error instanceof api.QrError);
      assert.equal(error.message, 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"');
      assert.equal(thrown(() => render('')).kind, 'empty-text');
      assert.equal(thrown(() => render(new Uint8Array(0))).kind, 'empty-text');
    }
  });
}

// A text's code is its UTF-8's code (wit/qr.wit: png-bytes(utf8(t), o) is
// png(t, o)): on every path, every corpus text (but the huge ones and lone
// surrogates, which have no UTF-8) gives, as bytes, exactly the text's
// output in every output, or exactly its error.
const utf8Cases = cases.filter((c) => !isBytesCase(c) && c.text_repeat === undefined && caseText(c).isWellFormed()
  && (c.options?.['min-size'] ?? 200) <= 1024 && (c.options?.scale ?? 1) <= 10);

for (const { name, api } of everyPath) {
  test(`${name}: a text's UTF-8 as bytes gives the text's output, for every output`, () => {
    assert.ok(utf8Cases.length > 200, `${utf8Cases.length} cases`);
    const attempt = (render) => {
      try {
        const value = render();
        return typeof value === 'string' ? value : sha256(value instanceof Uint8Array ? value : Uint8Array.of(value.width, ...value.modules));
      } catch (error) {
        return { kind: error.kind, message: error.message };
      }
    };
    for (const testCase of utf8Cases) {
      const text = caseText(testCase);
      const bytes = new TextEncoder().encode(text);
      const options = jsOptions(testCase.options);
      for (const output of ['png', 'svg', 'matrix']) {
        const given = output === 'svg' ? jsSvgOptions(testCase.options) : options;
        assert.deepEqual(attempt(() => api[output](bytes, given)), attempt(() => api[output](text, given)), `${testCase.id} ${output}`);
      }
      for (const style of api.TEXT_STYLES) {
        assert.deepEqual(attempt(() => api.text(bytes, { ...options, style })), attempt(() => api.text(text, { ...options, style })),
          `${testCase.id} text ${style}`);
      }
    }
  });

  // The bytes of a Uint8Array, a Buffer, an ArrayBuffer or a DataView, and
  // of a view only its window: the same payload is the same code.
  test(`${name}: bytes as a Uint8Array, a Buffer, an ArrayBuffer or a DataView, a view's window only`, () => {
    const text = caseText(cases.find((c) => c.id === 'ref-02'));
    const bytes = new TextEncoder().encode(text);
    const padded = new Uint8Array(bytes.length + 13).fill(0x41);
    padded.set(bytes, 5);
    const forms = {
      Uint8Array: bytes, Buffer: Buffer.from(text), ArrayBuffer: bytes.slice().buffer,
      DataView: new DataView(padded.buffer, 5, bytes.length), subarray: padded.subarray(5, 5 + bytes.length),
      'Buffer slice': Buffer.from(padded).subarray(5, 5 + bytes.length),
      // A Uint8Array that lies about its length is read by its real one.
      'lying length': Object.defineProperty(bytes.slice(), 'length', { value: 3 }),
    };
    for (const [form, input] of Object.entries(forms)) {
      assert.equal(sha256(api.png(input)), expected['ref-02'].png_sha256, form);
      assert.equal(sha256(Buffer.from(api.svg(input), 'utf8')), expected['ref-02'].svg_sha256, form);
      assert.equal(matrixSha256(api.matrix(input)), expected['ref-02'].matrix_sha256, form);
      assert.equal(sha256(Buffer.from(api.text(input), 'utf8')), expected['ref-02'].text_sha256['half-blocks'], form);
    }
    // The input is read, never written.
    assert.deepEqual(padded.subarray(0, 5), new Uint8Array(5).fill(0x41));
    assert.equal(new TextDecoder().decode(bytes), text);
  });
}

// What each path calls, recorded on the guests' exports and the addon's
// functions in a fresh process (tests/support/routes.mjs): a text goes to the text
// generators, a payload of any bytes-like type to their *-bytes twins, data
// URLs included.
test('a payload goes to the bytes generators and a text to the text ones, on every path', () => {
  const routes = fileURLToPath(new URL('./support/routes.mjs', import.meta.url));
  const called = JSON.parse(execFileSync(process.execPath, [routes], { encoding: 'utf8' }));
  const want = ['png', 'png-bytes', 'svg-bytes', 'matrix-bytes', 'text-bytes', 'svg', 'matrix', 'text', 'png-bytes', 'svg'];
  assert.deepEqual(called, { component: want, raw: want, bindgen: want, native: want });
});

// Node encodes data URLs with Buffer; a browser (no Buffer) takes the btoa
// fallback: both give the same base64 for any bytes, views at an offset and
// lengths past one btoa chunk (0x8000) included.
test('data URLs: the browser fallback base64 equals Buffer\'s', async () => {
  const { base64InChunks } = await import('../lib/common.js');
  const backing = new Uint8Array(0x8000 * 2 + 7 + 5);
  for (let i = 0; i < backing.length; i++) backing[i] = (i * 131 + (i >> 8)) & 0xff;
  for (const length of [0, 1, 2, 3, 394, 0x7fff, 0x8000, 0x8001, 0x8000 * 2 + 7]) {
    const view = backing.subarray(5, 5 + length);
    const want = Buffer.from(view).toString('base64');
    assert.equal(base64InChunks(view), want, `length ${length}`);
    assert.equal(Buffer.from(want, 'base64').equals(Buffer.from(view)), true);
  }
});

// Every error kind on every path (with its message, and the same as the
// component path's), the contract's check order, the host-side
// checks (lone surrogates, oversized texts, option types) and the defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paths, everyPath, thrown, sha256, REFERENCE_URL, expected } from './support/fixtures.js';

function assertQrError(api, fn, kind) {
  const error = thrown(fn);
  assert.ok(error instanceof api.QrError, `expected QrError(${kind}), got ${error?.stack ?? error}`);
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'QrError');
  assert.equal(error.kind, kind, error.message);
  return error;
}

// Every way in that takes a text: png, svg, matrix, text, and the png-repeat probe.
function renderers({ api, probe }) {
  return {
    png: (text, options) => api.png(text, options),
    svg: (text, options) => api.svg(text, options),
    matrix: (text, options) => api.matrix(text, options),
    text: (text, options) => api.text(text, options),
    pngRepeat: (text, options) => probe.pngRepeat(text, options, 2),
  };
}

const LONE_SURROGATES = ['\ud800', '\udfff', 'ab\ud800cd', 'https://x.org/\udc00', '\udc00\ud800', `${'a'.repeat(100)}\ud83e`];

for (const path of paths) {
  const { name, api, probe } = path;

  for (const [via, render] of Object.entries(renderers(path))) {
    test(`${name} ${via}: one error per kind`, () => {
      assertQrError(api, () => render('', undefined), 'empty-text');
      assertQrError(api, () => render('a'.repeat(3000), undefined), 'data-too-long');
      assertQrError(api, () => render('hello', { minSize: 0 }), 'invalid-options');
      for (const text of LONE_SURROGATES) {
        assertQrError(api, () => render(text, undefined), 'invalid-text');
      }
    });
  }

  test(`${name}: a lone surrogate is invalid-text, a surrogate pair is a text`, () => {
    const error = assertQrError(api, () => api.png('\ud800'), 'invalid-text');
    assert.match(error.message, /lone surrogate/);
    const crab = api.png('\ud83e\udd80'); // 🦀 as a well-formed pair
    assert.ok(crab.length > 0);
    // The replacement character is a text of its own, not what '\ud800' becomes.
    assert.notEqual(sha256(api.png('\ufffd')), sha256(crab));
  });

  test(`${name}: the contract's order: the host's errors (invalid-text, data-too-long by length, an option WIT cannot carry), then the guest's (empty-text, invalid-options)`, () => {
    const badOptions = { minSize: 0 }; // the guest's check
    const unrepresentable = { minSize: 1.5 }; // the host's: WIT has no such u32
    for (const options of [badOptions, unrepresentable]) {
      assertQrError(api, () => api.png(`${'a'.repeat(8000)}\ud800`, options), 'invalid-text');
      assertQrError(api, () => api.png('a'.repeat(8000), options), 'data-too-long');
      assertQrError(api, () => api.png('ok', options), 'invalid-options');
    }
    assertQrError(api, () => api.png('', badOptions), 'empty-text');
    assertQrError(api, () => api.png('', unrepresentable), 'invalid-options');
    // Over 7089 bytes by length comes before options; not fitting by encoding after.
    assertQrError(api, () => api.png('a'.repeat(3000), unrepresentable), 'invalid-options');
  });

  test(`${name}: the 7089-byte bound counts UTF-8 bytes, not UTF-16 units`, () => {
    const euro = '\u20ac'; // 3 UTF-8 bytes, 1 UTF-16 unit
    assertQrError(api, () => api.png(euro.repeat(2364)), 'data-too-long'); // 7092 bytes, host check
    assertQrError(api, () => api.png(euro.repeat(2363)), 'data-too-long'); // 7089 bytes, guest: does not fit
    const numeric = '7'.repeat(7089);
    assert.equal(sha256(api.png(numeric)), expected['max-numeric-low'].png_sha256);
  });

  test(`${name}: a 1 MB text is rejected without growing guest memory`, () => {
    api.png(REFERENCE_URL); // settle allocations of a normal call first
    const before = probe.memoryBytes();
    for (const text of ['a'.repeat(1 << 20), '\u20ac'.repeat(1 << 20), `${'7'.repeat(1 << 20)}`]) {
      assertQrError(api, () => api.png(text), 'data-too-long');
      assertQrError(api, () => api.svg(text), 'data-too-long');
    }
    assert.equal(probe.memoryBytes(), before);
  });

  test(`${name}: defaults are low, 200, 4, no scale, black on white, the automatic symbol, half-blocks`, () => {
    assert.deepEqual({ ...api.DEFAULTS }, {
      ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined, dark: '#000000ff', light: '#ffffffff',
      micro: false, version: undefined, minVersion: undefined, mask: undefined, boostEc: false, eci: false, style: 'half-blocks',
      viewBoxOnly: false, title: undefined, class: undefined,
    });
    const halfBlocks = api.text(REFERENCE_URL, { ecLevel: 'low', minSize: 200, quietZone: 4, style: 'half-blocks' });
    assert.equal(sha256(Buffer.from(halfBlocks)), expected['ref-02'].text_sha256['half-blocks']);
    for (const options of [undefined, null, {}, { style: undefined }, { quietZone: 4 }]) {
      assert.equal(api.text(REFERENCE_URL, options), halfBlocks, JSON.stringify(options));
    }
    const explicit = sha256(api.png(REFERENCE_URL, { ecLevel: 'low', minSize: 200, quietZone: 4 }));
    assert.equal(explicit, expected['ref-02'].png_sha256);
    // DEFAULTS itself (less text's style and svg's own options) is the default image, spelt any way.
    const { style, viewBoxOnly, title, class: className, ...imageDefaults } = api.DEFAULTS;
    // svg's own defaults, spelt out, are the default document.
    assert.equal(api.svg(REFERENCE_URL, { viewBoxOnly, title, class: className }), api.svg(REFERENCE_URL));
    for (const options of [undefined, null, {}, { ecLevel: undefined }, { minSize: 200 }, imageDefaults, { scale: undefined },
      { dark: '#000', light: '#FFF' }, { dark: '#000000', light: '#ffffffff' }, { dark: '#000F' }]) {
      assert.equal(sha256(api.png(REFERENCE_URL, options)), explicit, JSON.stringify(options));
    }
    // Each option is applied: changing one changes the image.
    for (const options of [{ ecLevel: 'high' }, { minSize: 300 }, { quietZone: 0 }, { scale: 5 }, { dark: '#010101' },
      { light: '#fffffe' }]) {
      assert.notEqual(sha256(api.png(REFERENCE_URL, options)), explicit, JSON.stringify(options));
    }
    assert.equal(sha256(api.png(REFERENCE_URL, { ecLevel: 'high' })), expected['ref-02-ec-high'].png_sha256);
  });

  test(`${name}: options that are not a u32 or a known level are invalid-options, never TypeError`, () => {
    const invalid = [
      { ecLevel: 'LOW' }, { ecLevel: 'l' }, { ecLevel: 0 }, { ecLevel: null },
      { minSize: 1.5 }, { minSize: -1 }, { minSize: 2 ** 32 }, { minSize: 2 ** 32 + 200 }, { minSize: NaN },
      { minSize: Infinity }, { minSize: '200' }, { minSize: 200n }, { minSize: null },
      { quietZone: 4.000001 }, { quietZone: -0.5 }, { quietZone: 2 ** 53 }, { quietZone: '4' },
      { quietZone: 17 }, { minSize: 4097 },
      { scale: 0 }, { scale: 21 }, { scale: 1.5 }, { scale: -1 }, { scale: 2 ** 32 }, { scale: '3' }, { scale: null },
      { dark: 'black' }, { light: 0xffffffff }, { dark: null }, { dark: '#fff' },
      { 'min-size': 200 }, { min_size: 200 }, { ecLevel: 'low', extra: true },
      'low', 200, true,
    ];
    for (const options of invalid) {
      const error = assertQrError(api, () => api.png('hello', options), 'invalid-options');
      assert.ok(error.message.length > 0);
    }
    // Bounds are inclusive; -0 is the integer 0.
    for (const options of [{ minSize: 1 }, { minSize: 4096 }, { quietZone: 0 }, { quietZone: -0 }, { quietZone: 16 }, { scale: 1 },
      { scale: 20 }]) {
      assert.ok(api.png('hello', options).length > 0, JSON.stringify(options));
    }
  });

}

// The contract's messages (tests/vectors/expected.json and target/contract.json
// hold them too; contract.test.js checks the constants).
const LONE_SURROGATE_MESSAGE = 'text contains a lone surrogate (not encodable as UTF-8)';
const DATA_TOO_LONG_MESSAGE = 'text does not fit in any QR code: it is over 7089 bytes, the most one holds';

for (const { name, api, probe } of everyPath) {
  test(`${name}: one error per kind through png, svg, matrix, text and pngRepeat, with the contract's messages`, () => {
    for (const render of [api.png, api.svg, api.matrix, api.text, (t, o) => probe.pngRepeat(t, o, 2)]) {
      const expect = (fn, kind, message) => {
        const error = assertQrError(api, fn, kind);
        assert.equal(error.message, message);
      };
      expect(() => render('', undefined), 'empty-text', 'text is empty');
      // The guest's data-too-long names the limit hit: version 40 at level low, in bits.
      expect(() => render('a'.repeat(3000), undefined), 'data-too-long',
        'text does not fit in a QR code at level low: it needs 24020 data bits, version 40 holds 23648');
      expect(() => render('a'.repeat(100), { version: 1 }), 'data-too-long',
        'text does not fit in version 1 at level low: it needs 812 data bits, version 1 holds 152');
      expect(() => render('abc', { micro: true, version: 1 }), 'data-too-long',
        'text does not fit in Micro QR version M1: M1 holds digits only');
      expect(() => render('x'.repeat(7090), undefined), 'data-too-long', DATA_TOO_LONG_MESSAGE);
      expect(() => render('hello', { minSize: 0 }), 'invalid-options', 'min-size must be within 1..=4096, got 0');
      expect(() => render('hello', { quietZone: 17 }), 'invalid-options', 'quiet-zone must be within 0..=16, got 17');
      expect(() => render('ab\ud800cd', undefined), 'invalid-text', LONE_SURROGATE_MESSAGE);
    }
  });

  if (name === 'component') continue;
  test(`${name}: the same kind and message as the component path for host-checked and guest-checked inputs`, () => {
    const component = everyPath[0].api;
    const inputs = [
      ['', undefined], ['\udc00', undefined], ['x'.repeat(7090), undefined], ['\u20ac'.repeat(2363), undefined],
      ['a'.repeat(3000), undefined], ['a'.repeat(9000), undefined],
      ['ok', { minSize: 4097 }], ['ok', { minSize: -1 }], ['ok', { minSize: 1.5 }], ['ok', { minSize: 2 ** 32 }],
      ['ok', { quietZone: '4' }], ['ok', { quietZone: 99 }], ['ok', { ecLevel: 'LOW' }], ['ok', { ecLevel: 'x' }],
      ['ok', { colour: 'red' }], ['ok', 'high'], ['', { minSize: 0 }], ['', { quietZone: 99 }],
      ['ok', { scale: 0 }], ['ok', { scale: 2 ** 32 - 1 }], ['ok', { scale: 2 ** 32 }], ['ok', { dark: 'red' }],
      ['ok', { dark: '#abc', light: '#AABBCC' }], ['', { dark: 'red' }], ['ok', { minSize: 0, light: 'red' }],
      [`${'a'.repeat(8000)}\ud800`, { minSize: 0 }],
    ];
    for (const [text, options] of inputs) {
      for (const output of ['png', 'matrix', 'text']) {
        const want = thrown(() => component[output](text, options));
        const got = thrown(() => api[output](text, options));
        assert.ok(want instanceof component.QrError && got instanceof api.QrError, `${output}: ${got}`);
        assert.deepEqual({ kind: got.kind, message: got.message }, { kind: want.kind, message: want.message },
          JSON.stringify([output, text.slice(0, 20), options]));
      }
    }
  });
}

// text()'s style: a name of TEXT_STYLES or absent. A bad one is invalid-options
// with the contract's text-style-name message, and the contract checks it
// after every other option: the text's errors and every other option's error
// come first, on every path. Like every option it comes before the encoding
// (a text that does not fit, found only by encoding it, comes after).
const STYLE_MESSAGE = 'text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}';
const BAD_STYLES = [
  ['bogus', '"bogus"'], ['HALF-BLOCKS', '"HALF-BLOCKS"'], ['half_blocks', '"half_blocks"'], ['', '""'], ['$&', '"$&"'],
  [0, '0 (number)'], [2, '2 (number)'], [null, 'null (object)'], [true, 'true (boolean)'], [['ascii'], 'ascii (object)'],
];

for (const { name, api } of everyPath) {
  test(`${name}: a bad text style is invalid-options with the contract's message, a host check after the options' own`, () => {
    for (const [style, shown] of BAD_STYLES) {
      const error = assertQrError(api, () => api.text('hello', { style }), 'invalid-options');
      assert.equal(error.message, STYLE_MESSAGE.replace('{value}', () => shown), JSON.stringify(style));
      // Every other output takes no style at all.
      for (const output of [api.png, api.svg, api.matrix]) {
        const unknown = assertQrError(api, () => output('hello', { style: 'ascii' }), 'invalid-options');
        const caller = output === api.svg ? 'svg' : output === api.png ? 'png' : 'matrix';
        assert.equal(unknown.message,
          `unknown option "style" for ${caller}() (known: ecLevel,` + ' minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci'
          + `${output === api.svg ? ', viewBoxOnly, title, class' : ''})`);
      }
    }
    const bad = { style: 'bogus' };
    const badStyle = STYLE_MESSAGE.replace('{value}', '"bogus"');
    const firsts = [
      // The text's host checks, then the options' (the style after the others), then the guest's.
      ['ab\ud800cd', bad, 'invalid-text'], ['', bad, badStyle], ['', { ...bad, minSize: 0 }, badStyle],
      ['', { style: 'ascii' }, 'empty-text'],
      ['x'.repeat(7090), bad, 'data-too-long'],
      ['hello', { ...bad, minSize: 0 }, badStyle],
      ['hello', { ...bad, quietZone: 17 }, badStyle],
      ['hello', { ...bad, ecLevel: 'x' }, 'ec-level must be one of low, medium, quartile, high, got "x"'],
      ['hello', { ...bad, minSize: 1.5 }, 'min-size must be an integer, got 1.5 (number)'],
      ['hello', { ...bad, colour: 'red' },
        'unknown option "colour" for text() (known: ecLevel, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci, style)'],
      ['hello', { ...bad, scale: 0 }, badStyle],
      ['hello', { ...bad, dark: 'red' }, 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
      ['hello', { ...bad, dark: '#fff', light: '#ffffff' }, badStyle],
      ['hello', { style: 'ascii', dark: '#fff', light: '#ffffff' }, 'dark and light must be different colours, both are #ffffffff'],
      ['a'.repeat(3000), bad, badStyle],
    ];
    for (const [text, options, want] of firsts) {
      const error = thrown(() => api.text(text, options));
      assert.ok(error instanceof api.QrError, `${error?.stack ?? error}`);
      const got = error.kind === 'invalid-options' ? error.message : error.kind;
      assert.equal(got, want, JSON.stringify([text.slice(0, 20), options]));
    }
    // A good style with the same text and options is not refused for the style.
    assert.equal(thrown(() => api.text('a'.repeat(3000), { style: 'ascii' })).kind, 'data-too-long');
    for (const style of api.TEXT_STYLES) assert.ok(api.text('hello', { style }).endsWith('\n'), style);
  });
}

// scale, dark and light (contract 0.2.0). The guest checks scale's range and
// the two colours being the same; the host reads the colours (CSS hex
// strings) and words one it cannot read with the contract's color message,
// in the contract's order all the same: after the text's errors and after
// ec-level, min-size, quiet-zone and scale, dark before light, and before the
// same-colour check.
const COLOR_MESSAGE = '{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}';
const BAD_COLORS = [
  ['', '""'], ['#', '"#"'], ['000', '"000"'], ['#00', '"#00"'], ['#00000', '"#00000"'], ['#0000000', '"#0000000"'],
  ['#000000000', '"#000000000"'], ['#ggg', '"#ggg"'], ['# 000', '"# 000"'], ['#+12', '"#+12"'], ['red', '"red"'],
  ['#ff00ff\n', '"#ff00ff\\n"'], ['\uff03fff', '"\uff03fff"'], ['#\u0663\u0663\u0663', '"#\u0663\u0663\u0663"'],
  ['#-12', '"#-12"'], ['#0x1', '"#0x1"'], [' #fff', '" #fff"'], ['#fff ', '"#fff "'], ['$&', '"$&"'],
  [0, '0 (number)'], [0xff, '255 (number)'], [null, 'null (object)'], [true, 'true (boolean)'],
  [{ r: 0, g: 0, b: 0, a: 255 }, '[object Object] (object)'], [['#000'], '#000 (object)'], [0x000000ffn, '255 (bigint)'],
];
const colorMessage = (option, shown) => COLOR_MESSAGE.replace('{option}', option).replace('{value}', () => shown);

for (const path of everyPath) {
  const { name, api } = path;

  test(`${name}: scale out of 1..=20, or not an integer within u32, is invalid-options`, () => {
    for (const render of Object.values(renderers(path))) {
      // An integer outside 1..=20, within u32 (the guest's check) or not (the host's, in the same words).
      for (const scale of [0, 21, 2 ** 32 - 1, -1, 2 ** 32, -(2 ** 53)]) {
        assert.equal(assertQrError(api, () => render('hello', { scale }), 'invalid-options').message,
          `scale must be within 1..=20, got ${scale}`);
      }
      for (const [scale, shown] of [[1.5, '1.5 (number)'], [2.5, '2.5 (number)'], ['3', '"3"'], [null, 'null (object)'],
        [NaN, 'NaN (number)'], [Infinity, 'Infinity (number)'], [3n, '3 (bigint)']]) {
        assert.equal(assertQrError(api, () => render('hello', { scale }), 'invalid-options').message,
          `scale must be an integer, got ${shown}`, String(scale));
      }
      // The contract's range of each number option, not u32's (item: quietZone -1).
      for (const [name, wit, range] of [['quietZone', 'quiet-zone', '0..=16'], ['minSize', 'min-size', '1..=4096']]) {
        assert.equal(assertQrError(api, () => render('hello', { [name]: -1 }), 'invalid-options').message,
          `${wit} must be within ${range}, got -1`);
      }
    }
  });

  test(`${name}: a colour that is not #rgb, #rgba, #rrggbb or #rrggbbaa is invalid-options, for dark and for light`, () => {
    for (const render of Object.values(renderers(path))) {
      for (const [color, shown] of BAD_COLORS) {
        for (const option of ['dark', 'light']) {
          const error = assertQrError(api, () => render('hello', { [option]: color }), 'invalid-options');
          assert.equal(error.message, colorMessage(option, shown), `${option}: ${JSON.stringify(String(color))}`);
        }
      }
      // Either case, every length, the alpha digit(s) included.
      for (const [dark, light] of [['#ABC', '#fff'], ['#0000', '#FFFF'], ['#A0b1C2', '#fFfFfF'], ['#a0b1c2d3', '#A0B1C2D4']]) {
        assert.ok(render('hello', { dark, light }) !== undefined, `${dark} ${light}`);
      }
    }
  });

  test(`${name}: the same colour twice is invalid-options, however spelt, and only when equal with alpha`, () => {
    const same = (dark, light, hex) => assert.equal(
      assertQrError(api, () => api.png('hello', { dark, light }), 'invalid-options').message,
      `dark and light must be different colours, both are ${hex}`, `${dark} ${light}`);
    same('#fff', '#ffffff', '#ffffffff');
    same('#fff', undefined, '#ffffffff');
    same(undefined, '#000000FF', '#000000ff');
    same('#123456', '#123456ff', '#123456ff');
    same('#0000', '#00000000', '#00000000');
    // The same RGB with another alpha is another colour.
    assert.ok(api.png('hello', { dark: '#000000', light: '#00000080' }).length > 0);
  });

  test(`${name}: scale and colour errors in the contract's order: the host's first, then the guest's`, () => {
    const cases = [
      // The text's host checks come first, then the options' (what WIT cannot carry, in record order).
      ['', { dark: 'red' }, colorMessage('dark', '"red"')], ['', { light: 'red', scale: 0 }, colorMessage('light', '"red"')],
      ['', { scale: 0 }, 'empty-text'],
      ['ab\ud800cd', { dark: 'red' }, 'invalid-text'], ['x'.repeat(7090), { dark: 'red', scale: 1.5 }, 'data-too-long'],
      ['hello', { ecLevel: 'x', dark: 'red' }, 'ec-level must be one of low, medium, quartile, high, got "x"'],
      ['hello', { minSize: 0, dark: 'red' }, colorMessage('dark', '"red"')],
      ['hello', { minSize: 0, scale: 1.5 }, 'scale must be an integer, got 1.5 (number)'],
      ['hello', { quietZone: 17, light: 'red' }, colorMessage('light', '"red"')],
      // Then the guest's, in record order: ec-level, min-size, quiet-zone, scale, same colours.
      ['hello', { quietZone: 17, scale: 0 }, 'quiet-zone must be within 0..=16, got 17'],
      ['hello', { scale: 0, dark: 'red' }, colorMessage('dark', '"red"')],
      ['hello', { scale: 21, dark: '#fff', light: '#fff' }, 'scale must be within 1..=20, got 21'],
      ['hello', { dark: 'red', light: 'blue' }, colorMessage('dark', '"red"')],
      ['hello', { light: 'blue', dark: 'red' }, colorMessage('dark', '"red"')],
      ['hello', { dark: '#fff', light: 'blue' }, colorMessage('light', '"blue"')],
      ['hello', { dark: '#000', light: 'blue' }, colorMessage('light', '"blue"')],
      ['hello', { dark: '#fff', light: '#fff' }, 'dark and light must be different colours, both are #ffffffff'],
      // Every option comes before the encoding: a text that does not fit only once encoded comes after.
      ['a'.repeat(3000), { dark: 'red' }, colorMessage('dark', '"red"')],
      ['a'.repeat(3000), { dark: '#fff', light: '#fff' }, 'dark and light must be different colours, both are #ffffffff'],
      ['a'.repeat(3000), { dark: '#123' }, 'data-too-long'],
    ];
    for (const render of Object.values(renderers(path))) {
      for (const [text, options, want] of cases) {
        const error = thrown(() => render(text, options));
        assert.ok(error instanceof api.QrError, `${error?.stack ?? error}`);
        const got = error.kind === 'invalid-options' ? error.message : error.kind;
        assert.equal(got, want, JSON.stringify([text.slice(0, 20), options]));
      }
    }
  });
}

// Binary payloads (the WIT *-bytes calls): the same public functions take a
// Uint8Array (a Buffer is one), an ArrayBuffer or a DataView. Their errors
// are a text's: empty is empty-text, over 7089 bytes data-too-long (before any
// copy), then the options in the contract's order; never invalid-text. Any
// other input is a TypeError that names what is accepted.
const INPUT_TYPE_ERROR = 'qrglue: the input must be a string (a text) or bytes (a Uint8Array, an ArrayBuffer or a DataView), got {type}';
const utf8 = (text) => new TextEncoder().encode(text);

for (const { name, api, probe } of everyPath) {
  const outputs = {
    png: api.png, svg: api.svg, matrix: api.matrix, text: api.text, pngDataUrl: api.pngDataUrl, svgDataUrl: api.svgDataUrl,
  };

  test(`${name}: an input that is neither a text nor bytes is a TypeError naming what is accepted`, () => {
    const wrong = [
      [undefined, 'undefined'], [null, 'null'], [42, 'number'], [42n, 'bigint'], [true, 'boolean'],
      [[104, 105], 'Array'], [[], 'Array'], [{ toString: () => 'hi' }, 'Object'], [{ length: 2, 0: 104, 1: 105 }, 'Object'],
      [new String('hi'), 'String'], [new Uint16Array([104, 105]), 'Uint16Array'], [new Int8Array(2), 'Int8Array'],
      [new Uint8ClampedArray(2), 'Uint8ClampedArray'], [new Float64Array(1), 'Float64Array'],
      [new SharedArrayBuffer(2), 'SharedArrayBuffer'], [new Blob(['hi']), 'Blob'],
      // An object that only inherits from Uint8Array.prototype is no Uint8Array (and is named as what it is).
      [Object.create(Uint8Array.prototype), 'Object'],
    ];
    for (const [input, type] of wrong) {
      for (const [output, render] of Object.entries(outputs)) {
        const error = thrown(() => render(input));
        assert.ok(error instanceof TypeError, `${output}(${type}): ${error}`);
        assert.ok(!(error instanceof api.QrError), `${output}(${type})`);
        assert.equal(error.message, INPUT_TYPE_ERROR.replace('{type}', type), `${output}(${type})`);
      }
    }
    // Wrong options do not hide a wrong input: the type comes first.
    assert.equal(thrown(() => api.png([1, 2], { minSize: 0 })).constructor, TypeError);
    // The probes take texts only.
    assert.throws(() => probe.pngRepeat(utf8('hello'), undefined, 1), TypeError);
  });

  test(`${name}: bytes: empty is empty-text, over 7089 bytes data-too-long, never invalid-text, in the contract's order`, () => {
    const buffer = new ArrayBuffer(16);
    // A buffer transferred away (detached) has no bytes left, nor have its views.
    const detached = new ArrayBuffer(8);
    const [overDetached, dataViewOverDetached] = [new Uint8Array(detached), new DataView(detached, 2)];
    structuredClone(detached, { transfer: [detached] });
    const empties = [new Uint8Array(0), Buffer.alloc(0), new ArrayBuffer(0), new DataView(buffer, 16), new Uint8Array(buffer, 5, 0),
      detached, overDetached, dataViewOverDetached];
    for (const [output, render] of Object.entries(outputs)) {
      for (const empty of empties) {
        for (const options of [undefined, { minSize: 0 }]) {
          const error = assertQrError(api, () => render(empty, options), 'empty-text');
          assert.equal(error.message, 'text is empty', `${output} ${JSON.stringify(options)}`);
        }
        // An option WIT cannot carry is the host's to refuse, before the guest sees the empty payload.
        assert.equal(assertQrError(api, () => render(empty, { dark: 'red' }), 'invalid-options').message,
          colorMessage('dark', '"red"'), output);
      }
      for (const long of [new Uint8Array(7090), new ArrayBuffer(7090), new DataView(new ArrayBuffer(8000), 1, 7090)]) {
        for (const options of [undefined, { minSize: 0 }, { dark: 'red' }]) {
          assert.equal(assertQrError(api, () => render(long, options), 'data-too-long').message, DATA_TOO_LONG_MESSAGE, output);
        }
      }
      // Bytes a text call refuses as invalid-text (no UTF-8, a WTF-8 lone surrogate) are a payload like any other.
      for (const bytes of [[0xff, 0xfe], [0xed, 0xa0, 0x80], [0x80], [0xc0, 0xaf]]) {
        assert.ok(render(Uint8Array.from(bytes)) !== undefined, `${output}: ${bytes}`);
      }
      // 2954 bytes of byte mode do not fit at level low: found by encoding, after every option.
      const over = new Uint8Array(2954).fill(0xff);
      assert.equal(assertQrError(api, () => render(over), 'data-too-long').message,
        'text does not fit in a QR code at level low: it needs 23652 data bits, version 40 holds 23648', output);
      assert.equal(assertQrError(api, () => render(over, { minSize: 0 }), 'invalid-options').message,
        'min-size must be within 1..=4096, got 0', output);
    }
  });

  // Every error a text gives, its UTF-8 as bytes gives too, kind and message:
  // the contract's order is the same for both, host-checked and guest-checked.
  test(`${name}: bytes: the errors of a text's UTF-8 are the text's`, () => {
    const bad = [
      ['', undefined], ['', { minSize: 0 }], ['x'.repeat(7090), { dark: 'red' }], ['\u20ac'.repeat(2364), undefined],
      ['a'.repeat(3000), undefined], ['a'.repeat(3000), { dark: 'red' }], ['ok', { minSize: 4097 }], ['ok', { minSize: 1.5 }],
      ['ok', { quietZone: '4' }], ['ok', { ecLevel: 'LOW' }], ['ok', { colour: 'red' }], ['ok', 'high'],
      ['ok', { scale: 0, dark: 'red' }], ['ok', { dark: 'red', light: 'blue' }], ['ok', { dark: '#fff', light: '#fff' }],
      ['ok', { micro: 1 }], ['ok', { version: 2, minVersion: 3 }], ['ok', { micro: true, ecLevel: 'high' }],
      ['ok', { mask: 8, dark: 'red' }], ['hello world', { micro: true, version: 1 }], ['ok', { style: 'ascii' }],
    ];
    for (const [text, options] of bad) {
      for (const output of ['png', 'svg', 'matrix']) {
        const want = thrown(() => api[output](text, options));
        const got = thrown(() => api[output](utf8(text), options));
        assert.ok(want instanceof api.QrError && got instanceof api.QrError, `${output}: ${got}`);
        assert.deepEqual({ kind: got.kind, message: got.message }, { kind: want.kind, message: want.message },
          JSON.stringify([output, text.slice(0, 20), options]));
      }
    }
    for (const [text, options] of [['', { style: 'x' }], ['ok', { minSize: 0, style: 'x' }], ['ok', { style: 'x' }],
      ['ok', { style: null }], ['a'.repeat(3000), { style: 'x' }], ['a'.repeat(3000), { style: 'ascii' }]]) {
      const want = thrown(() => api.text(text, options));
      const got = thrown(() => api.text(utf8(text), options));
      assert.deepEqual({ kind: got.kind, message: got.message }, { kind: want.kind, message: want.message },
        JSON.stringify([text.slice(0, 20), options]));
    }
  });
}

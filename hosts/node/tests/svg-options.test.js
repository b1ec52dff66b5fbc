// svg()'s own options (WIT `svg-options`: viewBoxOnly, title, class) on
// every path: the defaults are the plain document; each option does the
// same on every path, for a text and its bytes, and through svgDataUrl; a
// hostile title reads back exactly through a real XML parser (@xmldom/xmldom,
// a pinned dev dependency); every refusal has the contract's message: the
// host's own (types, lone surrogates, oversized strings, never copied into a
// guest) after the other options' host checks and before any of the guest's,
// the guest's after the text's and the other options' errors, as this file's
// oracle (expectedProblem) words them. The same tests as the Python host's
// tests/test_svg_options.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DOMParser } from '@xmldom/xmldom';
import { MAX_SVG_CLASS_BYTES, MAX_SVG_TITLE_BYTES, MESSAGES, svgBoundaryProblem } from '../lib/common.js';
import { everyPath, paths, expected, sha256, thrown, REFERENCE_URL } from './support/fixtures.js';

const [reference, ...others] = everyPath;

/**
 * The document parsed strictly: any warning or error of the parser fails the
 * test. Line ends as XML 1.0 (the document's version, section 2.11)
 * normalises them, CR LF and CR to LF: xmldom's default also takes XML 1.1's
 * U+0085 and U+2028 for line ends, which no XML 1.0 parser does.
 */
function parse(svg) {
  const fail = (level) => (message) => { throw new Error(`XML ${level}: ${message}`); };
  const parser = new DOMParser({
    errorHandler: { warning: fail('warning'), error: fail('error'), fatalError: fail('fatal error') },
    normalizeLineEndings: (input) => input.replace(/\r\n?/g, '\n'),
  });
  return parser.parseFromString(svg, 'image/svg+xml').documentElement;
}

function refusal(render) {
  const error = thrown(render);
  assert.ok(error?.name === 'QrError', `${error?.stack ?? error}`);
  return error.kind === 'invalid-options' ? error.message : error.kind;
}

const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
const badClass = (value) => fill(MESSAGES.class, { value: rustDebug(value) });
const tooLong = (value) => fill(MESSAGES['too-long'], { option: 'title', max: MAX_SVG_TITLE_BYTES, value });
const tooLongClass = (value) => fill(MESSAGES['too-long'], { option: 'class', max: MAX_SVG_CLASS_BYTES, value });
const notXml = (char, index) => fill(MESSAGES['not-xml-char'], { option: 'title', char, index });
const utf8Length = (value) => new TextEncoder().encode(value).length;

/**
 * The test's oracle for what the guest says of SVG options the host passes
 * on (guest/core SvgOptions::validate): the title (at most its bound in
 * UTF-8 bytes, then only XML 1.0 characters), then the class (at most its
 * bound, then CSS class names separated by single spaces); null when both
 * pass. Written here, not in the package: the guest alone checks these.
 */
function expectedProblem({ title, class: className }) {
  if (title !== undefined) {
    if (utf8Length(title) > MAX_SVG_TITLE_BYTES) return tooLong(utf8Length(title));
    const bad = /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/.exec(title);
    if (bad !== null) {
      return notXml(`U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, utf8Length(title.slice(0, bad.index)));
    }
  }
  if (className !== undefined) {
    if (utf8Length(className) > MAX_SVG_CLASS_BYTES) return tooLongClass(utf8Length(className));
    if (!/^[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*$/.test(className)) return badClass(className);
  }
  return null;
}

/**
 * A string as Rust's `{:?}` writes it (the contract's `class` message quotes
 * the value so): in double quotes, `"` and `\` escaped, \0 \t \r \n, and
 * as `\u{hex}` every grapheme extender and every character Rust does not
 * print (controls, format characters, separators but the space, private
 * use, unassigned).
 */
function rustDebug(value) {
  const escapes = { '\0': '\\0', '\t': '\\t', '\r': '\\r', '\n': '\\n', '"': '\\"', '\\': '\\\\' };
  let out = '"';
  for (const char of value) {
    if (escapes[char] !== undefined) {
      out += escapes[char];
    } else if (/[\p{Grapheme_Extend}\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(char) && char !== ' ') {
      out += `\\u{${char.codePointAt(0).toString(16)}}`;
    } else {
      out += char;
    }
  }
  return `${out}"`;
}

test('the defaults are the plain document, on every path', () => {
  for (const { name, api } of everyPath) {
    const plain = api.svg(REFERENCE_URL);
    assert.equal(sha256(Buffer.from(plain)), expected['ref-02'].svg_sha256, name);
    for (const options of [{}, { viewBoxOnly: false }, { title: undefined, class: undefined }, { viewBoxOnly: undefined }]) {
      assert.equal(api.svg(REFERENCE_URL, options), plain, `${name}: ${JSON.stringify(options)}`);
      assert.equal(api.svgDataUrl(REFERENCE_URL, options), api.svgDataUrl(REFERENCE_URL), name);
    }
    const root = parse(plain);
    assert.ok(root.hasAttribute('width') && root.hasAttribute('height') && !root.hasAttribute('class'), name);
    assert.equal(root.getElementsByTagName('title').length, 0, name);
  }
});

test('each option does what it says, the same on every path, for a text and its bytes, and in the data URL', () => {
  const bytes = new TextEncoder().encode(REFERENCE_URL);
  for (const options of [{ viewBoxOnly: true }, { title: 'A code' }, { title: '' }, { class: 'qr qr-large' },
    { viewBoxOnly: true, title: 'Menu', class: 'a_1 B-2', ecLevel: 'high', dark: '#336699' }]) {
    const want = reference.api.svg(REFERENCE_URL, options);
    for (const { name, api } of everyPath) {
      assert.equal(api.svg(REFERENCE_URL, options), want, `${name}: ${JSON.stringify(options)}`);
      assert.equal(api.svg(bytes, options), want, `${name} bytes: ${JSON.stringify(options)}`);
      const url = api.svgDataUrl(REFERENCE_URL, options);
      assert.equal(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').toString('utf8'), want, name);
    }
    const root = parse(want);
    const { viewBoxOnly = false, title, class: className } = options;
    assert.equal(root.hasAttribute('width'), !viewBoxOnly);
    assert.equal(root.hasAttribute('height'), !viewBoxOnly);
    assert.ok(root.hasAttribute('viewBox'));
    assert.equal(root.getAttribute('class') || undefined, className);
    const titles = root.getElementsByTagName('title');
    assert.equal(titles.length, title === undefined ? 0 : 1);
    if (title !== undefined) assert.equal(titles[0].textContent, title);
  }
});

// Every XML 1.0 character class: tab, LF, CR, markup, quotes, entities
// spelt out, the BMP below and above the surrogates, the last BMP
// characters XML allows, astral planes.
const HOSTILE_TITLES = [
  '</title><script>alert(1)</script>', '"double" \'single\' & <amp>', 'CR\rLF\nCRLF\r\nLFCR\n\r', '\t tab \t',
  ']]> <![CDATA[x]]> <!-- c --> <?pi x?>', '&amp; &#13; &lt; &#x41;', ' leading and trailing ', '\r', '\n\n',
  'é ü ß Ω Я 中文 日本語 한국어 עברית العربية', '\u0080\u009f\u00a0\u00ad\u200b\u200e\u2028\u2029\ufeff',
  '\ud7ff\ue000\ufdd0\ufffd', '🦀 \u{10000} \u{1f600} \u{10ffff} \u{e0001}', 'a\u0301 \u0300x',
  'x'.repeat(MAX_SVG_TITLE_BYTES), '€'.repeat(341) + 'x',
];

test('a hostile title reads back exactly through an XML parser, on every path', () => {
  for (const title of HOSTILE_TITLES) {
    const want = reference.api.svg('hello', { title });
    const root = parse(want);
    assert.equal(root.getElementsByTagName('title')[0].textContent, title, JSON.stringify(title));
    assert.equal(root.getElementsByTagName('script').length, 0);
    assert.equal(root.childNodes[0].nodeName, 'title', 'the title is the first child');
    for (const { name, api } of others) assert.equal(api.svg('hello', { title }), want, `${name}: ${JSON.stringify(title)}`);
  }
});

// Refusals whose message only the guest words (the values fit their bounds and are well-formed).
const GUEST_REFUSALS = [
  [{ title: 'ab\u0007' }, notXml('U+0007', 2)],
  [{ title: '\0' }, notXml('U+0000', 0)],
  [{ title: 'é\ufffe' }, notXml('U+FFFE', 2)],
  [{ title: '🦀\uffff' }, notXml('U+FFFF', 4)],
  [{ title: 'ok\u001f\u0007' }, notXml('U+001F', 2)],
  ...['', ' ', 'a  b', ' a', 'a ', 'a.b', 'a,b', 'é', 'a"b\\', 'a\tb', 'a\nb', 'a\r\0', '\u0301', 'a\u00a0b', 'a\u200bb',
    'a\u2028', '\u{e000}', '🦀'].map((value) => [{ class: value }, badClass(value)]),
];

test('every bad title and class is invalid-options with the contract\'s message, on every path', () => {
  // A few as Rust's Debug quotes them, spelt out.
  assert.equal(rustDebug('a  b'), '"a  b"');
  assert.equal(rustDebug('a"b\\'), '"a\\"b\\\\"');
  assert.equal(rustDebug('a\tb\n\r\0'), '"a\\tb\\n\\r\\0"');
  assert.equal(rustDebug('\u0301\u00a0\u200b\u0007é🦀'), '"\\u{301}\\u{a0}\\u{200b}\\u{7}é🦀"');
  for (const { name, api } of everyPath) {
    for (const [options, want] of GUEST_REFUSALS) {
      assert.equal(refusal(() => api.svg('hello', options)), want, `${name}: ${JSON.stringify(options).slice(0, 80)}`);
      assert.equal(refusal(() => api.svgDataUrl(new Uint8Array([1, 2]), options)), want, `${name} bytes`);
      // The guest's alone: the host passes it on; the oracle says the same.
      assert.equal(svgBoundaryProblem(options), null);
      assert.equal(expectedProblem(options), want);
    }
  }
});

// What the host answers itself (the guest is never shown these), with the guest's order.
const HOST_REFUSALS = [
  [{ viewBoxOnly: 1 }, 'view-box-only must be a boolean, got 1 (number)'],
  [{ viewBoxOnly: 'true' }, 'view-box-only must be a boolean, got "true"'],
  [{ viewBoxOnly: null }, 'view-box-only must be a boolean, got null (object)'],
  [{ title: 5 }, 'title must be a string, got 5 (number)'],
  [{ title: null }, 'title must be a string, got null (object)'],
  [{ title: ['x'] }, 'title must be a string, got x (object)'],
  [{ class: 5 }, 'class must be a string, got 5 (number)'],
  [{ class: ['a', 'b'] }, 'class must be a string, got a,b (object)'],
  [{ title: '\ud800' }, 'title contains a lone surrogate (not encodable as UTF-8)'],
  [{ title: 'ok', class: 'a\udc00' }, 'class contains a lone surrogate (not encodable as UTF-8)'],
  [{ title: 'x'.repeat(100_000_000) }, tooLong(100_000_000)],
  [{ title: '€'.repeat(1_000_000) }, tooLong(3_000_000)],
  [{ title: 'x'.repeat(MAX_SVG_TITLE_BYTES + 1) }, tooLong(MAX_SVG_TITLE_BYTES + 1)],
  [{ title: '€'.repeat(342) }, tooLong(1026)],
  [{ class: 'x'.repeat(MAX_SVG_CLASS_BYTES + 1) }, tooLongClass(MAX_SVG_CLASS_BYTES + 1)],
  [{ class: 'a'.repeat(1_000_000) }, tooLongClass(1_000_000)],
  [{ class: 'a\u0301 '.repeat(100) }, tooLongClass(400)],
  // Record order: view-box-only, title, class; the host's checks before any of the guest's.
  [{ viewBoxOnly: 1, title: 'x'.repeat(2000) }, 'view-box-only must be a boolean, got 1 (number)'],
  [{ title: 'a\u0007', class: 'b'.repeat(300) }, tooLongClass(300)],
  [{ title: 'x'.repeat(2000), class: '\ud800' }, tooLong(2000)],
  [{ title: 'a\u0007', class: 5 }, 'class must be a string, got 5 (number)'],
  [{ title: '\ud800', class: 'a  b' }, 'title contains a lone surrogate (not encodable as UTF-8)'],
];

test('types, lone surrogates and oversized strings: the host\'s answers, guest memory unchanged, on every path', () => {
  for (const { name, api, probe } of everyPath) {
    api.svg('hello', { title: 'warm up', class: 'a' });
    const before = probe.memoryBytes?.();
    for (const [options, want] of HOST_REFUSALS) {
      assert.equal(refusal(() => api.svg('hello', options)), want, `${name}: ${JSON.stringify(options).slice(0, 80)}`);
      assert.equal(svgBoundaryProblem(options), want);
    }
    if (before !== undefined) assert.equal(probe.memoryBytes(), before, `${name}: no oversized string entered the guest`);
  }
});

test('the SVG options: the host\'s checks after the text\'s and the other options\' host checks, the guest\'s after all the others', () => {
  const huge = 'x'.repeat(100_000_000);
  const firsts = [
    ['', { title: huge }, tooLong(100_000_000)],
    ['', { title: 'a\u0007' }, 'empty-text'],
    [new Uint8Array(0), { class: 'a  b' }, 'empty-text'],
    ['ab\ud800', { title: '\ud800' }, 'invalid-text'],
    ['x'.repeat(7090), { viewBoxOnly: 1 }, 'data-too-long'],
    [new Uint8Array(7090), { title: 'a\u0007' }, 'data-too-long'],
    ['hello', { minSize: 0, title: huge }, tooLong(100_000_000)],
    ['hello', { minSize: 0, title: 'a\u0007' }, 'min-size must be within 1..=4096, got 0'],
    ['hello', { dark: 'red', viewBoxOnly: 1 }, 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
    ['hello', { dark: '#fff', light: '#fff', class: 'a'.repeat(300) }, tooLongClass(300)],
    ['hello', { dark: '#fff', light: '#fff', class: 'a  b' }, 'dark and light must be different colours, both are #ffffffff'],
    ['hello', { micro: 'x', title: '\ud800' }, 'micro must be a boolean, got "x"'],
    ['hello', { version: 99, class: 5 }, 'class must be a string, got 5 (number)'],
    ['hello', { version: 99, class: 'a  b' }, 'version must be within 1..=40, got 99'],
    ['hello', { micro: true, ecLevel: 'high', title: 'a\u0007' }, 'ec-level high is not available in Micro QR (M4 goes up to quartile)'],
  ];
  for (const { name, api } of everyPath) {
    for (const [input, options, want] of firsts) {
      const got = refusal(() => api.svg(input, options));
      assert.equal(got, want, `${name}: ${JSON.stringify(options).slice(0, 60)}`);
    }
  }
});

test('only svg and svgDataUrl take the SVG options: the other outputs refuse them as unknown options', () => {
  for (const { name, api } of everyPath) {
    for (const option of ['viewBoxOnly', 'title', 'class']) {
      for (const render of [api.png, api.matrix, api.text, api.pngDataUrl]) {
        const message = refusal(() => render('hello', { [option]: option === 'viewBoxOnly' ? true : 'x' }));
        assert.match(message, new RegExp(`^unknown option "${option}" for (png|matrix|text)\\(\\) \\(known: `), name);
      }
    }
  }
});

// Random titles and classes of XML-legal and illegal characters, spaces,
// marks and quotes give the same answer (or the same document) on every path,
// the one the test's oracle (expectedProblem) gives.
test('random titles and classes: every path agrees, with the oracle', () => {
  const chars = fc.constantFrom('a', 'Z', '0', '-', '_', ' ', '.', '"', '\\', '<', '&', '\t', '\n', '\r', '\u0007', '\0', 'é',
    '\u0301', '\u00a0', '\u200b', '\u2028', '\ufffe', '\uffff', '\ufeff', '🦀', '\u{e0001}', '\u{10ffff}', '\ud7ff', '\ue000');
  const text = fc.array(chars, { maxLength: 24 }).map((parts) => parts.join(''));
  fc.assert(fc.property(fc.option(fc.boolean(), { nil: undefined }), fc.option(text, { nil: undefined }),
    fc.option(text, { nil: undefined }), (viewBoxOnly, title, className) => {
      const options = { viewBoxOnly, title, class: className };
      const outcomes = everyPath.map(({ api }) => {
        try {
          return { svg: api.svg('hi', options) };
        } catch (error) {
          return { kind: error.kind, message: error.message };
        }
      });
      for (const outcome of outcomes.slice(1)) assert.deepEqual(outcome, outcomes[0]);
      const problem = expectedProblem(options);
      assert.deepEqual(outcomes[0].message ?? null, problem);
      if (problem === null) assert.equal(parse(outcomes[0].svg).getElementsByTagName('title')[0]?.textContent, title);
    }), { numRuns: 400, seed: 24 });
});

// Raw ABI 6: the title and class travel in one guest buffer that the guest
// frees, whatever the outcome: many calls leave the memory as it was.
test('raw: the SVG strings\' buffer is the guest\'s to free, refused or not', () => {
  const { api, probe } = paths.find((p) => p.name === 'raw');
  const options = { title: 'é'.repeat(500), class: 'a'.repeat(MAX_SVG_CLASS_BYTES) };
  api.svg('hello', options);
  const before = probe.memoryBytes();
  for (let i = 0; i < 2000; i++) {
    api.svg('hello', options);
    refusal(() => api.svg('hello', { ...options, minSize: 0 }));
    refusal(() => api.svg('hello', { ...options, class: 'a  b' }));
  }
  assert.equal(probe.memoryBytes(), before);
});

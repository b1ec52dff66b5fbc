// The `qrglue` command (cli.js), run as a child process the way a user runs
// it: golden PNG/SVG/text to a file and to standard output on every path, the
// corpus's error cases with the exact `qrglue: <kind>: <message>` line and
// exit 1, every usage error with exit 2, a write failure with exit 3, and the
// refusal to write a PNG to a terminal, and --data-file (a binary payload from
// a file or standard input). The same contract as the Rust CLI
// (hosts/rust/cli/tests/cli.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svg, text as textOf } from '../index.js';
import { cases, expected, caseBytes, caseText, isBytesCase, sha256, REFERENCE_URL } from './support/fixtures.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
const USAGE = 2;
// Where `just build-node` puts the native addon (lib/native.js's ADDON_PATH; importing that module
// throws when the addon is missing).
const ADDON_PATH = fileURLToPath(new URL(`../native/qrglue.${process.platform}-${process.arch}.node`, import.meta.url));

/** Runs the CLI; resolves to { code, stdout (Buffer), stderr (string) }. */
function qrglue(args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'buffer', maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? error.code : 0, stdout, stderr: stderr.toString('utf8') });
    });
  });
}

/** Runs the CLI with `input` (bytes) on its standard input; resolves as qrglue does. */
function qrglueWithStdin(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const [stdout, stderr] = [[], []];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }));
    // The CLI stops reading past the bound: a write it never reads is not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Runs `items` through `fn`, at most `limit` at a time (child processes on 2 cores). */
async function pooled(items, fn, limit = 4) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  }));
  return results;
}

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'qrglue-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A case's options as CLI flags: the WIT names are the flag names, but for
 * version (--symbol-version: --version prints the program's) and the
 * booleans, a flag without a value when true. The SVG options
 * (--view-box-only, --title, --class) are svg's alone: left out for any
 * other command.
 */
function flags(options, command) {
  const svgOnly = ['view-box-only', 'title', 'class'];
  return Object.entries(options).filter(([name]) => command === 'svg' || !svgOnly.includes(name)).flatMap(([name, value]) => {
    if (typeof value === 'boolean') return value ? [`--${name}`] : [];
    return [`--${name === 'version' ? 'symbol-version' : name}`, String(value)];
  });
}

const WASM_PATHS = ['component', 'raw', 'bindgen'];
// The native path needs the addon `just build-node` builds; without it, the CLI's exit 3 is tested below.
// auto (the default) is qrglue/auto: the addon where it is built, else the component.
const ALL_PATHS = [...(existsSync(ADDON_PATH) ? [...WASM_PATHS, 'native'] : WASM_PATHS), 'auto'];

test('the reference URL: the golden PNG and SVG, to a file and to standard output, on every path', async (t) => {
  const dir = scratch(t);
  const want = expected['ref-02'];
  for (const path of ALL_PATHS) {
    const file = join(dir, `${path}.png`);
    const toFile = await qrglue(['png', REFERENCE_URL, '-o', file, '--path', path]);
    assert.equal(toFile.code, 0, `${path}: ${toFile.stderr}`);
    assert.equal(toFile.stdout.length, 0, `${path}: nothing on stdout when writing a file`);
    assert.equal(sha256(readFileSync(file)), want.png_sha256, `${path}: png file`);

    const svgFile = join(dir, `${path}.svg`);
    assert.equal((await qrglue(['svg', REFERENCE_URL, '--path', path, '-o', svgFile])).code, 0);
    assert.equal(sha256(readFileSync(svgFile)), want.svg_sha256, `${path}: svg file`);

    const dash = await qrglue(['png', REFERENCE_URL, '-o', '-', '--path', path]);
    assert.equal(dash.code, 0, dash.stderr);
    assert.equal(sha256(dash.stdout), want.png_sha256, `${path}: png on stdout (-o -)`);
    // Standard output here is a pipe, not a terminal: the PNG goes through without -o.
    const piped = await qrglue(['png', REFERENCE_URL, '--path', path]);
    assert.equal(sha256(piped.stdout), want.png_sha256, `${path}: png on a piped stdout`);
    const svg = await qrglue(['svg', REFERENCE_URL, '--path', path]);
    assert.equal(sha256(svg.stdout), want.svg_sha256, `${path}: svg on stdout`);
    assert.equal(svg.stderr, '');
  }
});

test('text prints the golden text in every style, to standard output and to a file, on every path', async (t) => {
  const dir = scratch(t);
  const byId = new Map(cases.map((c) => [c.id, c]));
  const runs = [];
  for (const [i, path] of ALL_PATHS.entries()) {
    runs.push({ id: 'ref-02', style: 'half-blocks', args: ['text', REFERENCE_URL, '--path', path] });
    for (const style of ['half-blocks', 'half-blocks-inverted', 'ascii']) {
      runs.push({ id: 'ref-02', style, args: ['text', REFERENCE_URL, '--style', style, '--path', path] });
    }
    // Options apply as for png; the text goes to a file with -o.
    const c = byId.get(['ref-02-ec-high', 'quiet-zone-0', 'quiet-zone-16', 'utf8-cjk-emoji', 'ref-02'][i]);
    runs.push({ id: c.id, style: 'ascii', file: join(dir, `${path}.txt`),
      args: ['text', caseText(c), ...flags(c.options, 'text'), '--style=ascii', '--path', path, '-o', join(dir, `${path}.txt`)] });
  }
  const results = await pooled(runs, (run) => qrglue(run.args));
  runs.forEach((run, i) => {
    const where = run.args.join(' ');
    assert.equal(results[i].code, 0, `${where}: ${results[i].stderr}`);
    assert.equal(results[i].stderr, '', where);
    const written = run.file ? readFileSync(run.file) : results[i].stdout;
    if (run.file) assert.equal(results[i].stdout.length, 0, `${where}: nothing on stdout when writing a file`);
    assert.equal(sha256(written), expected[run.id].text_sha256[run.style], where);
  });
});

test('options: --ec-level by its WIT name; --min-size, --quiet-zone; the defaults', async () => {
  const ids = ['ref-02-ec-medium', 'ref-02-ec-quartile', 'ref-02-ec-high', 'ref-02-defaults', 'utf8-cjk-emoji',
    'min-size-1', 'min-size-4096', 'quiet-zone-0', 'quiet-zone-16', 'numeric', 'alphanumeric'];
  const byId = new Map(cases.map((c) => [c.id, c]));
  const runs = ids.map((id) => ({ id, args: ['png', caseText(byId.get(id)), '-o', '-', ...flags(byId.get(id).options, 'png')] }));
  runs.push({ id: 'ref-02-ec-high', args: ['png', REFERENCE_URL, '-o', '-', '--ec-level', 'high'] });
  runs.push({ id: 'ref-02-ec-quartile', args: ['png', REFERENCE_URL, '-o', '-', '--ec-level', 'quartile', '--path', 'raw'] });
  runs.push({ id: 'ref-02-ec-medium', args: ['png', REFERENCE_URL, '-o', '-', '--ec-level=medium', '--min-size=200'] });
  runs.push({ id: 'ref-02', args: ['png', '--quiet-zone', '4', REFERENCE_URL, '--min-size', '+200'] });
  const results = await pooled(runs, (run) => qrglue(run.args));
  runs.forEach((run, i) => {
    assert.equal(results[i].code, 0, `${run.id}: ${results[i].stderr}`);
    assert.equal(sha256(results[i].stdout), expected[run.id].png_sha256, `${run.id}: ${run.args.slice(2).join(' ')}`);
  });
  // A text that starts with '-' is taken after `--`.
  const dashText = await qrglue(['svg', '--', '-hello']);
  assert.equal(dashText.code, 0, dashText.stderr);
  assert.equal(dashText.stdout.toString(), svg('-hello'));
});

test("the corpus's error cases: exit 1, nothing written, exactly `qrglue: <kind>: <message>`", async (t) => {
  const dir = scratch(t);
  // Lone surrogates cannot come from argv (Node decodes the OS's bytes, replacing bad ones),
  // and an argument is at most 128 KiB on Linux: those cases are left to the API's tests.
  // Binary payloads come through --data-file (tested below).
  const errorCases = cases.filter((c) => !isBytesCase(c) && expected[c.id].error !== undefined && expected[c.id].error !== 'invalid-text')
    .filter((c) => Buffer.byteLength(caseText(c)) < 100_000)
    // Nor can a NUL (an SVG title's): the API's tests take those.
    .filter((c) => !Object.values(c.options ?? {}).some((value) => typeof value === 'string' && value.includes('\0')));
  assert.ok(errorCases.length >= 30, `only ${errorCases.length} error cases`);
  const kinds = new Set(errorCases.map((c) => expected[c.id].error));
  assert.deepEqual([...kinds].sort(), ['data-too-long', 'empty-text', 'invalid-options']);
  const runs = errorCases.flatMap((c, i) => [
    { c, path: WASM_PATHS[i % WASM_PATHS.length], command: 'png', file: join(dir, `${c.id}.png`) },
    { c, path: WASM_PATHS[(i + 1) % WASM_PATHS.length], command: 'svg', file: undefined },
    // text on a third of them: the same refusal through the other output.
    ...(i % 3 === 0 ? [{ c, path: WASM_PATHS[(i + 2) % WASM_PATHS.length], command: 'text', file: join(dir, `${c.id}.txt`) }] : []),
  ]);
  const results = await pooled(runs, ({ c, path, command, file }) =>
    qrglue([command, caseText(c), ...flags(c.options, command), '--path', path, ...(file ? ['-o', file] : [])]));
  runs.forEach(({ c, path, command, file }, i) => {
    const want = expected[c.id];
    const where = `${c.id} (${command}, ${path})`;
    assert.equal(results[i].stderr, `qrglue: ${want.error}: ${want.message}\n`, where);
    assert.equal(results[i].code, 1, where);
    assert.equal(results[i].stdout.length, 0, `${where}: nothing on stdout`);
    if (file) assert.ok(!existsSync(file), `${where}: no file is written`);
  });
});

test('usage errors: exit 2, the message, the usage line and a pointer to --help; nothing written', async () => {
  const pngUsage = 'Usage: qrglue png [OPTIONS] <TEXT>';
  const mainUsage = 'Usage: qrglue <COMMAND>';
  const textUsage = 'Usage: qrglue text [OPTIONS] <TEXT>';
  const usageCases = [
    [[], 'a subcommand is required (png, svg or text)', mainUsage],
    [['gif', 'x'], "unrecognized subcommand 'gif'", mainUsage],
    [['--bogus'], "unexpected argument '--bogus' found", mainUsage],
    [['help', 'gif'], "unrecognized subcommand 'gif'", mainUsage],
    [['png'], 'the following required arguments were not provided: <TEXT>', pngUsage],
    [['svg', '-o', '-'], 'the following required arguments were not provided: <TEXT>', 'Usage: qrglue svg [OPTIONS] <TEXT>'],
    [['png', 'x', 'y'], "unexpected argument 'y' found", pngUsage],
    [['png', 'x', '--bogus'], "unexpected argument '--bogus' found", pngUsage],
    [['png', 'x', '-x'], "unexpected argument '-x' found", pngUsage],
    [['png', 'x', '-o'], "a value is required for '-o, --output <FILE>' but none was supplied", pngUsage],
    [['png', 'x', '--path'], "a value is required for '--path <PATH>' but none was supplied", pngUsage],
    [['png', 'x', '--path', 'jit'], "invalid value 'jit' for '--path <PATH>' [possible values: auto, component, raw, bindgen, native]", pngUsage],
    [['png', 'x', '--path', 'Raw'], "invalid value 'Raw' for '--path <PATH>' [possible values: auto, component, raw, bindgen, native]", pngUsage],
    [['png', 'x', '--ec-level', 'X'], "invalid value 'X' for '--ec-level <EC_LEVEL>' [possible values: low, medium, quartile, high]", pngUsage],
    [['png', 'x', '--ec-level', 'constructor'], "invalid value 'constructor' for '--ec-level <EC_LEVEL>' [possible values: low, medium, quartile, high]", pngUsage],
    // The WIT names alone, as the library takes them: no letters, no other case.
    [['png', 'x', '--ec-level', 'M'], "invalid value 'M' for '--ec-level <EC_LEVEL>' [possible values: low, medium, quartile, high]", pngUsage],
    [['png', 'x', '--ec-level', 'HIGH'], "invalid value 'HIGH' for '--ec-level <EC_LEVEL>' [possible values: low, medium, quartile, high]", pngUsage],
    [['png', 'x', '--min-size', 'abc'], "invalid value 'abc' for '--min-size <MIN_SIZE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--min-size', '-1'], "invalid value '-1' for '--min-size <MIN_SIZE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--min-size', '1.5'], "invalid value '1.5' for '--min-size <MIN_SIZE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--min-size', ''], "invalid value '' for '--min-size <MIN_SIZE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--quiet-zone', '4294967296'], "invalid value '4294967296' for '--quiet-zone <QUIET_ZONE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--quiet-zone', '0x10'], "invalid value '0x10' for '--quiet-zone <QUIET_ZONE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--path', 'raw', '--path', 'raw'], "the argument '--path <PATH>' cannot be used multiple times", pngUsage],
    [['png', 'x', '-o', 'a.png', '--output', 'b.png'], "the argument '-o, --output <FILE>' cannot be used multiple times", pngUsage],
    // --style is text's alone, and takes a style's name.
    [['png', 'x', '--style', 'ascii'], "unexpected argument '--style' found", pngUsage],
    [['svg', 'x', '--style=ascii'], "unexpected argument '--style' found", 'Usage: qrglue svg [OPTIONS] <TEXT>'],
    [['text', 'x', '--style', 'Ascii'], "invalid value 'Ascii' for '--style <STYLE>' [possible values: half-blocks, half-blocks-inverted, ascii]", textUsage],
    [['text', 'x', '--style', 'blocks'], "invalid value 'blocks' for '--style <STYLE>' [possible values: half-blocks, half-blocks-inverted, ascii]", textUsage],
    [['text', 'x', '--style'], "a value is required for '--style <STYLE>' but none was supplied", textUsage],
    [['text', 'x', '--style', 'ascii', '--style', 'ascii'], "the argument '--style <STYLE>' cannot be used multiple times", textUsage],
    [['text'], 'the following required arguments were not provided: <TEXT>', textUsage],
    // --scale is a u32 like --min-size (its range is the generator's); --dark and --light take a value.
    [['png', 'x', '--scale', '1.5'], "invalid value '1.5' for '--scale <SCALE>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--scale', '-1'], "invalid value '-1' for '--scale <SCALE>': not an integer within 0..=4294967295", pngUsage],
    [['text', 'x', '--scale'], "a value is required for '--scale <SCALE>' but none was supplied", textUsage],
    [['png', 'x', '--dark'], "a value is required for '--dark <HEX>' but none was supplied", pngUsage],
    [['png', 'x', '--light', '#fff', '--light', '#fff'], "the argument '--light <HEX>' cannot be used multiple times", pngUsage],
    // The symbol options: three u32s (their ranges are the generator's) and two flags that take no value.
    [['png', 'x', '--symbol-version', 'M2'], "invalid value 'M2' for '--symbol-version <N>': not an integer within 0..=4294967295", pngUsage],
    [['png', 'x', '--min-version', '-1'], "invalid value '-1' for '--min-version <N>': not an integer within 0..=4294967295", pngUsage],
    [['text', 'x', '--mask'], "a value is required for '--mask <N>' but none was supplied", textUsage],
    [['png', 'x', '--micro=true'], "unexpected value 'true' for '--micro' found; no more were expected", pngUsage],
    [['svg', 'x', '--boost-ec=1'], "unexpected value '1' for '--boost-ec' found; no more were expected", 'Usage: qrglue svg [OPTIONS] <TEXT>'],
    [['png', 'x', '--micro', '--micro'], "the argument '--micro' cannot be used multiple times", pngUsage],
    [['png', 'x', '--micro', 'true'], "unexpected argument 'true' found", pngUsage],
    // --data-file takes the place of TEXT: not both, and a path.
    [['png', 'x', '--data-file', 'payload.bin'], "the argument '--data-file <PATH>' cannot be used with '<TEXT>'", pngUsage],
    [['text', '--data-file', '-', 'x'], "the argument '--data-file <PATH>' cannot be used with '<TEXT>'", textUsage],
    [['png', '--data-file'], "a value is required for '--data-file <PATH>' but none was supplied", pngUsage],
    [['svg', '--data-file', 'a', '--data-file', 'b'], "the argument '--data-file <PATH>' cannot be used multiple times",
      'Usage: qrglue svg [OPTIONS] <TEXT>'],
  ];
  const results = await pooled(usageCases, ([args]) => qrglue(args));
  usageCases.forEach(([args, message, usage], i) => {
    const where = JSON.stringify(args);
    assert.equal(results[i].stderr, `qrglue: ${message}\n\n${usage}\n\nFor more information, try '--help'.\n`, where);
    assert.equal(results[i].code, USAGE, where);
    assert.equal(results[i].stdout.length, 0, where);
  });
});

test('an invalid option value within u32 is the generator\'s invalid-options (exit 1), not a usage error', async () => {
  const out = await qrglue(['png', 'hello', '--min-size', '4294967295', '-o', '-']);
  assert.equal(out.stderr, 'qrglue: invalid-options: min-size must be within 1..=4096, got 4294967295\n');
  assert.equal(out.code, 1);
});

// The options of contract 0.2.0, as the Rust CLI takes them: --scale N, --dark HEX, --light HEX on png, svg
// and text; the corpus's opt-* cases with them are golden, and a colour the generator cannot read is its
// invalid-options (exit 1) in the contract's order, not a usage error.
test('--scale, --dark, --light: the golden images on every path, and the generator\'s errors in its order', async () => {
  const ids = ['opt-scale-1', 'opt-scale-7-quiet-2', 'opt-dark-red', 'opt-light-transparent', 'opt-short-hex',
    'opt-colors-and-scale-cjk', 'opt-black-on-white-spelled-out'];
  const byId = new Map(cases.map((c) => [c.id, c]));
  const runs = ids.flatMap((id, i) => {
    const c = byId.get(id);
    const path = ALL_PATHS[i % ALL_PATHS.length];
    return [
      { id, output: 'png', args: ['png', caseText(c), '-o', '-', '--path', path, ...flags(c.options, 'png')] },
      { id, output: 'svg', args: ['svg', caseText(c), '--path', path, ...flags(c.options, 'svg')] },
    ];
  });
  const results = await pooled(runs, (run) => qrglue(run.args));
  runs.forEach((run, i) => {
    assert.equal(results[i].code, 0, `${run.id}: ${results[i].stderr}`);
    assert.equal(sha256(results[i].stdout), expected[run.id][`${run.output}_sha256`], run.args.slice(2).join(' '));
  });
  const refused = [
    [['png', 'hello', '--dark', 'red'], 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
    [['svg', 'hello', '--light', '#12345'], 'light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "#12345"'],
    [['text', 'hello', '--dark', '#fff'], 'dark and light must be different colours, both are #ffffffff'],
    [['png', 'hello', '--scale', '21', '--path', 'raw'], 'scale must be within 1..=20, got 21'],
    // A colour WIT cannot carry is the host's error: before any of the guest's (docs/contract.md).
    [['png', 'hello', '--min-size', '0', '--dark', 'red', '--path', 'bindgen'], 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
    [['png', 'hello', '--min-size', '0', '--dark', '#000', '--path', 'bindgen'], 'min-size must be within 1..=4096, got 0'],
    [['png', 'hello', '--scale', '0', '--light', 'red'], 'light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
  ];
  const errors = await pooled(refused, ([args]) => qrglue([...args, '-o', '-']));
  refused.forEach(([args, message], i) => {
    assert.equal(errors[i].stderr, `qrglue: invalid-options: ${message}\n`, args.join(' '));
    assert.equal(errors[i].code, 1, args.join(' '));
  });
  const empty = await qrglue(['png', '', '--dark', '#000', '-o', '-']);
  assert.deepEqual([empty.code, empty.stderr], [1, 'qrglue: empty-text: text is empty\n']);
});

// The symbol options, as the Rust CLI takes them: --micro, --symbol-version N,
// --min-version N, --mask N, --boost-ec reach the generator on every path (the
// matrix they ask for, read from the ascii text), and a bad value is its
// invalid-options (exit 1) in the contract's words.
test('--micro, --symbol-version, --min-version, --mask, --boost-ec reach the generator on every path', async () => {
  const width = (stdout) => stdout.toString().split('\n').length - 1 - 2 * 4; // ascii: a line a module, quiet zone 4
  const runs = ALL_PATHS.flatMap((path) => [
    { args: ['text', 'hello', '--style', 'ascii', '--symbol-version', '5'], width: 37 },
    { args: ['text', 'hello', '--style', 'ascii', '--min-version', '3'], width: 29 },
    { args: ['text', '12345', '--style', 'ascii', '--micro'], width: 11 },
    { args: ['text', 'hello', '--style', 'ascii', '--micro', '--symbol-version', '4', '--mask', '2'], width: 17,
      same: textOf('hello', { micro: true, version: 4, mask: 2, style: 'ascii' }) },
    { args: ['svg', 'hello', '--mask', '3', '--boost-ec'], same: svg('hello', { mask: 3, boostEc: true }) },
    { args: ['svg', 'hello', '--boost-ec'], same: svg('hello', { boostEc: true }) },
    { args: ['svg', 'hello', '--eci'], same: svg('hello', { eci: true }) },
  ].map((run) => ({ ...run, args: [...run.args, '--path', path] })));
  const results = await pooled(runs, (run) => qrglue(run.args));
  runs.forEach((run, i) => {
    const where = run.args.join(' ');
    assert.equal(results[i].code, 0, `${where}: ${results[i].stderr}`);
    if (run.width !== undefined) assert.equal(width(results[i].stdout), run.width, where);
    if (run.same !== undefined) assert.equal(results[i].stdout.toString(), run.same, where);
  });
  // Each flag changes the image from the default one.
  assert.notEqual(svg('hello', { boostEc: true }), svg('hello'));
  assert.notEqual(svg('hello', { mask: 3, boostEc: true }), svg('hello', { boostEc: true }));
  const refused = [
    [['png', 'hello', '--mask', '8'], 'mask must be within 0..=7, got 8'],
    [['png', 'hello', '--micro', '--mask', '4', '--path', 'raw'], 'mask must be within 0..=3, got 4'],
    [['svg', 'hello', '--symbol-version', '41', '--path', 'bindgen'], 'version must be within 1..=40, got 41'],
    [['text', 'hello', '--symbol-version', '2', '--min-version', '2'], 'version and min-version exclude each other: give one'],
    [['png', 'hello', '--micro', '--ec-level', 'high'], 'ec-level high is not available in Micro QR (M4 goes up to quartile)'],
    // In the contract's order: same colours, then the symbol options.
    [['png', 'hello', '--dark', '#fff', '--mask', '99'], 'dark and light must be different colours, both are #ffffffff'],
    [['png', 'hello', '--quiet-zone', '99', '--min-version', '0'], 'quiet-zone must be within 0..=16, got 99'],
  ];
  const errors = await pooled(refused, ([args]) => qrglue([...args, '-o', '-']));
  refused.forEach(([args, message], i) => {
    assert.equal(errors[i].stderr, `qrglue: invalid-options: ${message}\n`, args.join(' '));
    assert.equal(errors[i].code, 1, args.join(' '));
    assert.equal(errors[i].stdout.length, 0, args.join(' '));
  });
  const tooLong = await qrglue(['svg', 'hello world', '--micro', '--symbol-version', '1']);
  assert.deepEqual([tooLong.code, tooLong.stderr], [1, 'qrglue: data-too-long: text does not fit in Micro QR version M1: M1 holds digits only\n']);
});

test('--help, -h, help <command>, -V: standard output, exit 0', async () => {
  const main = await qrglue(['--help']);
  assert.equal(main.code, 0);
  const text = main.stdout.toString();
  assert.match(text, /^QR codes as PNG or SVG/);
  assert.match(text, /\nUsage: qrglue <COMMAND>\n\nCommands:\n {2}png {3}Write the code as a 1-bit grayscale PNG\n {2}svg {3}Write the code as an SVG document\n {2}text {2}Write the code as text for a terminal or a file \(half blocks by default; on a dark terminal use --style half-blocks-inverted\)\n/);
  assert.equal((await qrglue(['help'])).stdout.toString(), text);
  for (const args of [['png', '--help'], ['png', 'x', '-h'], ['help', 'png']]) {
    const out = await qrglue(args);
    assert.equal(out.code, 0, JSON.stringify(args));
    const help = out.stdout.toString();
    assert.match(help, /^Write the code as a 1-bit grayscale PNG\n\nUsage: qrglue png \[OPTIONS\] <TEXT>\n\nArguments:\n {2}<TEXT> /);
    for (const flag of ['-o, --output <FILE>', '--path <PATH>', '--ec-level <EC_LEVEL>', '--min-size <MIN_SIZE>',
      '--quiet-zone <QUIET_ZONE>', '[default: auto]', '[default: 200]', '[default: 4]', '-h, --help',
      '--scale <SCALE>', '--dark <HEX>', '--light <HEX>', '[default: #000000ff]', '[default: #ffffffff]',
      '--micro ', '--symbol-version <N>', '--min-version <N>', '--mask <N>', '--boost-ec ', '--eci ',
      "--data-file <PATH>         Read the payload's bytes from PATH (- for standard input) instead of TEXT: any bytes, not only UTF-8 (the *-bytes generators)\n"]) {
      assert.ok(help.includes(flag), `${JSON.stringify(args)}: help lacks ${flag}`);
    }
  }
  assert.match((await qrglue(['svg', '-h'])).stdout.toString(), /^Write the code as an SVG document\n\nUsage: qrglue svg /);
  // --style is in text's help alone, with its default and values.
  const textHelp = (await qrglue(['help', 'text'])).stdout.toString();
  assert.match(textHelp, /^Write the code as text for a terminal or a file .*\n\nUsage: qrglue text \[OPTIONS\] <TEXT>\n/);
  assert.ok(textHelp.includes('--style <STYLE>') && textHelp.includes('[default: half-blocks] [possible values: half-blocks, half-blocks-inverted, ascii]'));
  assert.ok(!(await qrglue(['png', '-h'])).stdout.toString().includes('--style'));
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const v = await qrglue(['-V']);
  assert.equal(v.stdout.toString(), `qrglue ${version}\n`);
  assert.equal((await qrglue(['--version'])).stdout.toString(), `qrglue ${version}\n`);
});

// --data-file PATH (- for standard input): the payload's bytes instead of
// TEXT, through the *-bytes generators: every payload of the corpus gives
// its golden PNG, SVG and text (or its error line, exit 1) from a file and
// from standard input, on every path; a payload too long is data-too-long
// without being read whole; one that cannot be read is exit 3.
test('--data-file PATH and --data-file -: the corpus\'s payloads, golden on every path, and their errors', async (t) => {
  const dir = scratch(t);
  const payloads = cases.filter(isBytesCase);
  assert.ok(payloads.length >= 20, `${payloads.length} payloads`);
  const runs = payloads.flatMap((c, i) => {
    const file = join(dir, `${c.id}.bin`);
    writeFileSync(file, caseBytes(c));
    const args = flags(c.options, 'png');
    return [
      { c, output: 'png', args: ['png', '--data-file', file, '-o', '-', '--path', ALL_PATHS[i % ALL_PATHS.length], ...args] },
      { c, output: 'svg', stdin: true,
        args: ['svg', '--data-file', '-', '--path', ALL_PATHS[(i + 1) % ALL_PATHS.length], ...flags(c.options, 'svg')] },
      { c, output: 'text', stdin: true,
        args: ['text', ...args, '--style', 'ascii', '--path', ALL_PATHS[(i + 2) % ALL_PATHS.length], '--data-file', '-'] },
    ];
  });
  const results = await pooled(runs, (run) => (run.stdin ? qrglueWithStdin(run.args, caseBytes(run.c)) : qrglue(run.args)));
  runs.forEach(({ c, output, args }, i) => {
    const want = expected[c.id];
    const where = `${c.id}: ${args.join(' ')}`;
    if (want.error !== undefined) {
      assert.equal(results[i].stderr, `qrglue: ${want.error}: ${want.message}\n`, where);
      assert.equal(results[i].code, 1, where);
      assert.equal(results[i].stdout.length, 0, where);
      return;
    }
    assert.equal(results[i].code, 0, `${where}: ${results[i].stderr}`);
    assert.equal(results[i].stderr, '', where);
    const digest = output === 'text' ? want.text_sha256.ascii : want[`${output}_sha256`];
    assert.equal(sha256(results[i].stdout), digest, where);
  });

  // Bytes that are no text: the payload's code, which no TEXT argument can give.
  const notUtf8 = join(dir, 'not-utf8.bin');
  writeFileSync(notUtf8, Buffer.from([0xed, 0xa0, 0x80]));
  const fromFile = await qrglue(['png', '--data-file', notUtf8, '-o', '-']);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.equal(sha256(fromFile.stdout), expected['bytes-wtf8-lone-surrogate'].png_sha256);

  // Too long: 7090 bytes, and 4 MiB that are never read whole.
  for (const size of [7090, 4 << 20]) {
    const out = await qrglueWithStdin(['png', '--data-file', '-', '-o', '-'], Buffer.alloc(size, 0x37));
    assert.deepEqual([out.code, out.stderr], [1, 'qrglue: data-too-long: text does not fit in any QR code: it is over 7089 bytes, the most one holds\n'],
      `${size} bytes`);
  }
  const empty = join(dir, 'empty.bin');
  writeFileSync(empty, '');
  const none = await qrglue(['svg', '--data-file', empty, '--min-size', '0']);
  assert.deepEqual([none.code, none.stderr], [1, 'qrglue: empty-text: text is empty\n']);

  // Unreadable: exit 3, the path and the reason, nothing written.
  const missing = join(dir, 'absent.bin');
  const outFile = join(dir, 'never.png');
  for (const [path, reason] of [[missing, 'ENOENT'], [dir, 'EISDIR']]) {
    const out = await qrglue(['png', '--data-file', path, '-o', outFile]);
    assert.equal(out.code, 3, out.stderr);
    assert.ok(out.stderr.startsWith(`qrglue: cannot read the payload from ${path}: ${reason}`), out.stderr);
    assert.ok(!existsSync(outFile));
  }
});

test('an output that cannot be written: exit 3 and `qrglue: cannot write <FILE>: ...`', async (t) => {
  const file = join(scratch(t), 'missing-dir', 'out.png');
  const out = await qrglue(['png', 'hello', '-o', file]);
  assert.equal(out.code, 3);
  assert.match(out.stderr, new RegExp(`^qrglue: cannot write ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`));
});

test('--path native without a built addon: exit 3 with the loader\'s message', { skip: existsSync(ADDON_PATH) && 'the addon is built here' }, async () => {
  const out = await qrglue(['png', 'hello', '-o', '-', '--path', 'native']);
  assert.equal(out.code, 3);
  assert.match(out.stderr, /^qrglue: qrglue\/native: no native addon for .*just build-node/s);
});

// `script` (util-linux; Debian: bsdutils) runs the CLI on a pseudo-terminal and
// copies what reached it to its own standard output.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const hasScript = spawnSync('script', ['--version']).status === 0;

test('a PNG is not written to a terminal unless -o - forces it; an SVG is', { skip: !hasScript && 'no `script` (util-linux) for a terminal' }, () => {
  const onTerminal = (args) => spawnSync('script', ['--quiet', '--return', '--command',
    `'${process.execPath}' '${CLI}' ${args}`, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const refused = onTerminal('png hello');
  assert.equal(refused.status, USAGE, refused.stdout.toString('latin1'));
  assert.ok(refused.stdout.includes('qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it'));
  assert.ok(!refused.stdout.includes(PNG_SIGNATURE), 'no PNG byte reaches the terminal');
  const forced = onTerminal('png hello -o -');
  assert.equal(forced.status, 0);
  assert.ok(forced.stdout.includes(PNG_SIGNATURE));
  const svg = onTerminal('svg hello');
  assert.equal(svg.status, 0);
  assert.ok(svg.stdout.includes('<svg'));
});

// svg's own flags, as the Rust CLI takes them: --view-box-only, --title TEXT,
// --class NAMES reach the generator on every path; svg alone takes them (a
// usage error elsewhere); a bad title or class is the generator's
// invalid-options (exit 1), in the contract's order.
test('--view-box-only, --title, --class: svg only, on every path', async () => {
  const options = { viewBoxOnly: true, title: 'A <code> & "more"', class: 'qr qr-large' };
  const runs = ALL_PATHS.flatMap((path) => [
    { args: ['svg', 'hello', '--path', path, '--view-box-only', '--title', options.title, '--class', options.class], same: svg('hello', options) },
    { args: ['svg', 'hello', '--path', path, '--title=', '--min-size', '300'], same: svg('hello', { title: '', minSize: 300 }) },
    { args: ['svg', 'hello', '--path', path, '--class', 'x'], same: svg('hello', { class: 'x' }) },
  ]);
  const results = await pooled(runs, (run) => qrglue(run.args));
  runs.forEach((run, i) => {
    assert.equal(results[i].code, 0, `${run.args.join(' ')}: ${results[i].stderr}`);
    assert.equal(results[i].stdout.toString(), run.same, run.args.join(' '));
  });
  for (const [args, message] of [
    [['png', 'x', '--view-box-only', '-o', '-'], "unexpected argument '--view-box-only' found"],
    [['text', 'x', '--title', 't'], "unexpected argument '--title' found"],
    [['png', 'x', '--class=a', '-o', '-'], "unexpected argument '--class' found"],
    [['svg', 'x', '--title'], "a value is required for '--title <TEXT>' but none was supplied"],
    [['svg', 'x', '--view-box-only=yes'], "unexpected value 'yes' for '--view-box-only' found; no more were expected"],
    [['svg', 'x', '--class', 'a', '--class', 'b'], "the argument '--class <NAMES>' cannot be used multiple times"],
  ]) {
    const out = await qrglue(args);
    assert.equal(out.code, USAGE, args.join(' '));
    assert.ok(out.stderr.startsWith(`qrglue: ${message}\n`), `${args.join(' ')}: ${out.stderr}`);
  }
  for (const [args, message] of [
    [['svg', 'x', '--class', 'a  b'],
      'class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got "a  b"'],
    [['svg', 'x', '--title', 'a\u0007'], 'title holds U+0007 at byte 1, which XML 1.0 cannot carry'],
    [['svg', 'x', '--title', 'x'.repeat(1025), '--path', 'raw'], 'title must be at most 1024 UTF-8 bytes, got 1025'],
    [['svg', 'x', '--min-size', '0', '--class', 'a  b'], 'min-size must be within 1..=4096, got 0'],
  ]) {
    const out = await qrglue(args);
    assert.equal(out.stderr, `qrglue: invalid-options: ${message}\n`, args.join(' '));
    assert.equal(out.code, 1);
  }
  const empty = await qrglue(['svg', '', '--title', 'a\u0007']);
  assert.equal(empty.stderr, 'qrglue: empty-text: text is empty\n');
  // --help: svg's flags in svg's help alone.
  const svgHelp = (await qrglue(['help', 'svg'])).stdout.toString();
  for (const flag of ['--view-box-only ', '--title <TEXT>', '--class <NAMES>']) {
    assert.ok(svgHelp.includes(flag), flag);
    assert.ok(!(await qrglue(['help', 'png'])).stdout.toString().includes(flag), flag);
  }
});

// Measures the jco transpile flags the README's choice rests on: the same
// component transpiled several ways, then png(reference URL) and noop through
// each, interleaved in rounds in this one process (median, p10, p90).
// Run after `just build-node`: node experiments/jco/flags.mjs
// (transpiles into a temp dir; takes about a minute, wasm-opt included).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packageDir = fileURLToPath(new URL('../../hosts/node/', import.meta.url));
const component = join(packageDir, 'wasm/qrglue.component.wasm');
const scratch = mkdtempSync(join(tmpdir(), 'qrglue-jco-flags-'));
const ROUNDS = Number(process.env.ROUNDS ?? 100);
const TEXT = 'https://www.reddit.com/r/rustjerk/top/?t=all';

const jco = (command, ...args) => execFileSync('npx', ['--no-install', 'jco', command, '--quiet', ...args], { cwd: packageDir, stdio: 'ignore' });
// The guests use SIMD (simd128), which jco's default wasm-opt flags do not enable: its defaults plus --enable-simd.
jco('opt', component, '-o', join(scratch, 'opt-Oz.wasm'), '--', '-Oz', '--low-memory-unused', '--enable-bulk-memory', '--strip-debug',
  '--enable-simd');
jco('opt', component, '-o', join(scratch, 'opt-O3.wasm'), '--', '-O3', '--strip-debug', '--enable-bulk-memory',
  '--enable-bulk-memory-opt', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', '--enable-simd');

const variants = [
  ['sync', component, ['--instantiation', 'sync']],
  ['sync + valid-lifting', component, ['--instantiation', 'sync', '--valid-lifting-optimization']],
  ['sync + jco opt (-Oz, default)', join(scratch, 'opt-Oz.wasm'), ['--instantiation', 'sync']],
  ['sync + jco opt -O3', join(scratch, 'opt-O3.wasm'), ['--instantiation', 'sync']],
  ['default (async, top-level await)', component, []],
];

const runs = [];
for (const [i, [name, input, flags]] of variants.entries()) {
  const out = join(scratch, `v${i}`);
  jco('transpile', input, '-o', out, '--name', 'qrglue', ...flags);
  const mod = await import(pathToFileURL(join(out, 'qrglue.js')).href);
  const exports = mod.instantiate
    ? mod.instantiate((file) => new WebAssembly.Module(readFileSync(join(out, file))), {})
    : mod;
  const generator = exports.generator ?? exports['qrglue:qr/generator@0.2.0'];
  const probe = exports.probe ?? exports['qrglue:qr/probe@0.2.0'];
  const options = {
    ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined,
    dark: { r: 0, g: 0, b: 0, a: 255 }, light: { r: 255, g: 255, b: 255, a: 255 }, symbol: undefined,
  };
  runs.push({ name, png: () => generator.png(TEXT, options), noop: () => probe.noop(), samples: { png: [], noop: [] } });
}

const batch = { png: 20, noop: 2000 };
for (let round = -10; round < ROUNDS; round++) {
  for (const op of ['png', 'noop']) {
    for (let k = 0; k < runs.length; k++) {
      const run = runs[(k + round + 10) % runs.length];
      const start = process.hrtime.bigint();
      for (let i = 0; i < batch[op]; i++) run[op]();
      if (round >= 0) run.samples[op].push(Number(process.hrtime.bigint() - start) / batch[op]);
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

const q = (s, p) => s[Math.round((s.length - 1) * p)];
console.log(`${ROUNDS} rounds; us per call: median [p10, p90]`);
for (const run of runs) {
  const cell = (op) => {
    const s = run.samples[op].sort((a, b) => a - b);
    return `${(q(s, 0.5) / 1000).toFixed(2)} [${(q(s, 0.1) / 1000).toFixed(2)}, ${(q(s, 0.9) / 1000).toFixed(2)}]`;
  };
  console.log(`${run.name.padEnd(34)} png ${cell('png').padEnd(26)} noop ${cell('noop')}`);
}

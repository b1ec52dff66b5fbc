// Our component's glue as jco 1.12, 1.20 and 1.35 transpile it, in one
// process, interleaved (issue 34, item 4): each DIR is a `jco transpile
// target/wasm/qrglue.component.wasm -o DIR --name qrglue --instantiation sync`
// output of one jco version (the flags of hosts/node/scripts/build.sh). A
// glue that calls `_debugLog` is measured stock and with the package's patch
// (hosts/node/scripts/patch-jco.mjs) too. Every glue runs over the same
// compiled core module (the DIRs' qrglue.core.wasm must be byte-identical);
// the raw path's public png (qrglue/raw) is the reference. `png glue` is
// the glue of a png call without the guest's work (see stubPng).
//
// Every round times a batch of each op on each glue, the glue order
// reversed every other round. Prints µs per call, median [p10, p90].
//
// Usage (from the repository root, after `just build-node`):
//   node experiments/jco/versions.mjs [--rounds N] [--ablate] LABEL=DIR ...
// --ablate adds, per DIR, its last variant with jco's DataView helper
// changed to read `memory.buffer` only after a memory.grow.
// e.g. with jco installed under npm aliases in a scratch folder:
//   npm install jco112@npm:@bytecodealliance/jco@1.12.0 jco120@npm:@bytecodealliance/jco@1.20.0 ...
//   node node_modules/jco112/src/jco.js transpile .../qrglue.component.wasm -o gen112 --name qrglue --instantiation sync
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { patch } from '../../hosts/node/scripts/patch-jco.mjs';

const args = process.argv.slice(2);
let rounds = 100;
let ablate = false;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else if (args[i] === '--ablate') ablate = true;
  else {
    const [label, dir] = args[i].split('=');
    dirs.push([label, dir]);
  }
}
if (!dirs.length) {
  console.error('usage: node experiments/jco/versions.mjs [--rounds N] [--ablate] LABEL=DIR ...');
  process.exit(2);
}

const tmp = mkdtempSync(path.join(tmpdir(), 'qrglue-jco-versions-'));
const coreBytes = readFileSync(path.join(dirs[0][1], 'qrglue.core.wasm'));
const core = new WebAssembly.Module(coreBytes);
const instances = {};
// The glue of a png call alone: the same glue over a core instance whose png
// export returns, without any work, the result of the first real png (its
// post-return does nothing, so that result stays allocated). What is timed is
// then the glue's lowering (cabi_realloc calls for the argument area and the
// text, the text's UTF-8, the options' fields), its task bookkeeping, and the
// lifting of the result (the 398 bytes copied out). The argument areas the
// guest would free are left allocated: a few MB over a run.
const glueOnly = {};
const PNG = 'qrglue:qr/generator@0.2.0#png';
function stubPng(module, importObject) {
  const { exports } = new WebAssembly.Instance(module, importObject);
  let result;
  const stubbed = {
    ...exports,
    [PNG]: (args) => (result ??= exports[PNG](args)),
    [`cabi_post_${PNG}`]: () => {},
  };
  return { exports: stubbed };
}
for (const [label, dir] of dirs) {
  if (!readFileSync(path.join(dir, 'qrglue.core.wasm')).equals(coreBytes)) {
    throw new Error(`${dir}: another core module than ${dirs[0][1]}'s`);
  }
  const source = readFileSync(path.join(dir, 'qrglue.js'), 'utf8');
  const variants = { [label]: source };
  if (source.includes('_debugLog(')) {
    variants[`${label} stock`] = source;
    delete variants[label];
    variants[`${label} patched`] = patch(source);
  }
  if (ablate) {
    // Ablation, not a proposal as it stands (it assumes one memory): jco's
    // `dataView(memory0)` helper reads `memory0.buffer` (a getter into C++)
    // on every field it lowers or lifts; this copy reads it only when the
    // cached view's buffer was detached (memory.grow detaches it).
    const last = Object.keys(variants).at(-1);
    const helper = 'const dataView = mem => dv.buffer === mem.buffer ? dv : dv = new DataView(mem.buffer);';
    if (source.split(helper).length !== 2) throw new Error(`${dir}: the dataView helper is not jco's`);
    variants[`${last}, buffer read once`] = variants[last].replace(
      helper, 'const dataView = mem => dv.buffer.byteLength !== 0 ? dv : dv = new DataView(mem.buffer);');
  }
  for (const [name, text] of Object.entries(variants)) {
    // Two copies of the module, so the stubbed instance's call sites (a JS
    // function where the other has a wasm export) share no feedback with
    // the measured one's.
    for (const [copy, table, instantiateCore] of [['full', instances], ['glue', glueOnly, stubPng]]) {
      const file = path.join(tmp, `${name.replace(/\W+/g, '-')}-${copy}.mjs`);
      writeFileSync(file, text);
      const { instantiate } = await import(pathToFileURL(file).href);
      table[name] = instantiate(() => core, {}, instantiateCore);
    }
  }
}
rmSync(tmp, { recursive: true, force: true });

const url = 'https://www.reddit.com/r/rustjerk/top/?t=all'; // ref-02
// What the package's wrapper passes when no option is named (lib/component.js).
const options = {
  ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined,
  dark: { r: 0, g: 0, b: 0, a: 255 }, light: { r: 255, g: 255, b: 255, a: 255 }, symbol: undefined,
};
const raw = await import('../../hosts/node/raw.js');
const reference = raw.png(url);
for (const [name, e] of Object.entries({ ...instances, ...glueOnly })) {
  if (!Buffer.from(e.generator.png(url, options)).equals(Buffer.from(reference))) throw new Error(`${name}: another png`);
}

const series = [];
for (const [name, e] of Object.entries(instances)) {
  series.push([`noop     ${name}`, 2000, () => e.probe.noop()]);
  series.push([`png      ${name}`, 20, () => e.generator.png(url, options)]);
  series.push([`png glue ${name}`, 500, () => glueOnly[name].generator.png(url, options)]);
}
series.push(['png      raw (qrglue/raw, public API)', 20, () => raw.png(url)]);

const samples = {};
for (let round = -10; round < rounds; round++) {
  const order = round % 2 ? [...series].reverse() : series;
  for (const [key, batch, call] of order) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) call();
    const us = Number(process.hrtime.bigint() - start) / batch / 1e3;
    if (round >= 0) (samples[key] ??= []).push(us);
  }
}
const at = (sorted, q) => sorted[Math.round(q * (sorted.length - 1))];
const fmt = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
console.log(`node ${process.version}, ${rounds} rounds; µs per call, median [p10, p90]`);
for (const [key] of series) {
  const s = [...samples[key]].sort((a, b) => a - b);
  console.log(`${key.padEnd(44)} ${fmt(at(s, 0.5))} [${fmt(at(s, 0.1))}, ${fmt(at(s, 0.9))}]`);
}
// Per round, each glue's png minus the raw path's png of the same round: the
// glue's share of a png, both paths running the same core code.
console.log('png minus raw png, per round: median [p10, p90]');
for (const name of Object.keys(instances)) {
  const d = samples[`png      ${name}`].map((v, i) => v - samples['png      raw (qrglue/raw, public API)'][i]).sort((a, b) => a - b);
  console.log(`${name.padEnd(44)} ${fmt(at(d, 0.5))} [${fmt(at(d, 0.1))}, ${fmt(at(d, 0.9))}]`);
}

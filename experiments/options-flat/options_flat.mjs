// The toy component of options_flat.rs (gen_toy.py) through jco's glue: each
// DIR a `jco transpile toy.wasm -o DIR --name toy --instantiation sync`
// output (with `_debugLog` patched as the package does, where present). One
// process, every round a batch of each call on each glue, the order reversed
// every other round; µs per call, median [p10, p90], and per round minus
// flat16 on the same glue.
//   node experiments/options-flat/options_flat.mjs [--rounds N] LABEL=DIR ...
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { patch } from '../../hosts/node/scripts/patch-jco.mjs';

const args = process.argv.slice(2);
let rounds = 200;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else dirs.push(args[i].split('='));
}
const url = 'https://www.reddit.com/r/rustjerk/top/?t=all';
const options = [0, 200, 4, undefined, [0, 0, 0, 255], [255, 255, 255, 255], undefined];
const tmp = mkdtempSync(path.join(tmpdir(), 'qrglue-options-flat-'));
const series = [];
for (const [label, dir] of dirs) {
  let source = readFileSync(path.join(dir, 'toy.js'), 'utf8');
  if (source.includes('_debugLog(')) source = patch(source);
  const file = path.join(tmp, `${label.replace(/\W+/g, '-')}.mjs`);
  writeFileSync(file, source);
  const { instantiate } = await import(pathToFileURL(file).href);
  const core = new WebAssembly.Module(readFileSync(path.join(dir, 'toy.core.wasm')));
  const e = instantiate(() => core, {});
  const calls = {
    flat16: () => e.flat16(url, 0, 200, 4, 0, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0),
    spill17: () => e.spill17(url, 0, 200, 4, 0, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0),
    options: () => e.options(url, options),
  };
  if (calls.flat16() !== calls.spill17()) throw new Error('flat16 and spill17 disagree');
  for (const [name, call] of Object.entries(calls)) series.push([label, name, call, []]);
}
rmSync(tmp, { recursive: true, force: true });
const batch = 2000;
for (let round = -10; round < rounds; round++) {
  for (const s of round % 2 ? [...series].reverse() : series) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) s[2]();
    if (round >= 0) s[3].push(Number(process.hrtime.bigint() - start) / batch / 1e3);
  }
}
const at = (sorted, q) => sorted[Math.round(q * (sorted.length - 1))];
const show = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return `${at(s, 0.5).toFixed(3)} [${at(s, 0.1).toFixed(3)}, ${at(s, 0.9).toFixed(3)}]`;
};
console.log(`node ${process.version}, ${rounds} rounds of ${batch} calls; µs per call, median [p10, p90]`);
for (const [label, name, , v] of series) {
  const flat = series.find((s) => s[0] === label && s[1] === 'flat16')[3];
  const minus = name === 'flat16' ? '' : `   minus flat16: ${show(v.map((x, i) => x - flat[i]))}`;
  console.log(`jco ${label.padEnd(8)} ${name.padEnd(8)} ${show(v)}${minus}`);
}

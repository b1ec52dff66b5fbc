// Stock jco glue vs the patched glue (scripts/patch-jco.mjs) in one process,
// interleaved: every round times a batch of each op on each glue, the order
// alternating per round. Prints µs per call, median [p10, p90].
// Usage: node bench/jco-patch.mjs [rounds]   (after `just build-node`)
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unpatch } from '../../hosts/node/scripts/patch-jco.mjs';

const genUrl = new URL('../../hosts/node/gen/qrglue.js', import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'qrglue-jco-bench-'));
writeFileSync(path.join(dir, 'stock.js'), unpatch(readFileSync(genUrl, 'utf8')));
const glues = {
  stock: (await import(pathToFileURL(path.join(dir, 'stock.js')).href)).instantiate,
  patched: (await import(genUrl.href)).instantiate,
};
rmSync(dir, { recursive: true, force: true });
const core = new WebAssembly.Module(readFileSync(new URL('../../hosts/node/gen/qrglue.core.wasm', import.meta.url)));
const instances = Object.fromEntries(Object.entries(glues).map(([k, inst]) => [k, inst(() => core, {})]));

const url = 'https://www.reddit.com/r/rustjerk/top/?t=all'; // ref-02
// The full 0.2.0 record (jco lowers undefined scale and symbol as none).
const options = {
  ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined,
  dark: { r: 0, g: 0, b: 0, a: 255 }, light: { r: 255, g: 255, b: 255, a: 255 }, symbol: undefined,
};
const ops = {
  noop: [2000, (e) => e.probe.noop()],
  png: [20, (e) => e.generator.png(url, options)],
};
const rounds = Number(process.argv[2] ?? 100);
const samples = {};
for (let round = -10; round < rounds; round++) {
  for (const [op, [batch, call]] of Object.entries(ops)) {
    const names = Object.keys(instances);
    if (round % 2) names.reverse();
    for (const name of names) {
      const e = instances[name];
      const start = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) call(e);
      const us = Number(process.hrtime.bigint() - start) / batch / 1e3;
      if (round >= 0) (samples[`${op} ${name}`] ??= []).push(us);
    }
  }
}
const at = (sorted, q) => sorted[Math.round(q * (sorted.length - 1))];
console.log(`node ${process.version}, ${rounds} rounds; µs per call, median [p10, p90]`);
for (const [key, values] of Object.entries(samples)) {
  const s = values.sort((a, b) => a - b);
  console.log(`${key.padEnd(14)} ${at(s, 0.5).toFixed(2)} [${at(s, 0.1).toFixed(2)}, ${at(s, 0.9).toFixed(2)}]`);
}
for (const op of Object.keys(ops)) {
  const ratios = samples[`${op} stock`].map((s, i) => samples[`${op} patched`][i] / s).sort((a, b) => a - b);
  console.log(`${op}: patched/stock per round ${at(ratios, 0.5).toFixed(3)} [${at(ratios, 0.1).toFixed(3)}, ${at(ratios, 0.9).toFixed(3)}]`);
}

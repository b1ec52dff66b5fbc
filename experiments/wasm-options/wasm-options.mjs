import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
// Guest-only time per png (qr_png_repeat, the reference URL) of raw-ABI .wasm
// builds, in V8, one process, interleaved (the order rotates per round; a
// sample is the best of 3 calls of 20 renders each); first checks that every
// build gives the same bytes on the whole corpus and counts golden digests.
// Usage: node experiments/wasm-options/wasm-options.mjs a.wasm b.wasm ...   (ROUNDS=80)
import path from 'node:path';
import { parseColor, symbolFlags } from '../../hosts/node/lib/common.js';
const files = process.argv.slice(2);
const names = files.map((f) => path.basename(f, '.wasm'));
const repo = new URL('../../', import.meta.url).pathname;
const cases = JSON.parse(readFileSync(repo + 'tests/vectors/cases.json', 'utf8')).cases;
const expected = JSON.parse(readFileSync(repo + 'tests/vectors/expected.json', 'utf8'));
const EC = ['low', 'medium', 'quartile', 'high'];
const enc = new TextEncoder();
function mk(name, file) {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), {});
  const e = inst.exports;
  const call = (fn, text, o, extra = []) => {
    const bytes = enc.encode(text);
    let ptr = 0;
    if (bytes.length) { ptr = e.qr_alloc(bytes.length); new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes); }
    // Raw ABI 4 (guest/raw/ABI.md): ec, min_size, quiet_zone, has_scale, scale, dark, light,
    // symbol_flags, version, min_version, mask, then style / times.
    const rec = e[fn](ptr, bytes.length, o.ec, o.min, o.qz, o.scale === undefined ? 0 : 1, o.scale ?? 0, o.dark, o.light,
      o.flags, o.version ?? 0, o.minVersion ?? 0, o.mask ?? 0, ...extra);
    const dv = new DataView(e.memory.buffer);
    const words = [dv.getUint32(rec, true), dv.getUint32(rec + 4, true), dv.getUint32(rec + 8, true)];
    return { rec, words, e };
  };
  return { name, e, call };
}
const ms = names.map((n, i) => mk(n, files[i]));
// The result record (guest/raw/ABI.md): status, payload_ptr, payload_len.
function out(m, fn, text, o) {
  const { rec, words, e } = m.call(fn, text, o);
  const mem = new Uint8Array(e.memory.buffer);
  const copy = mem.slice(rec, rec + 16);
  const res = Buffer.from(mem.slice(words[1], words[1] + words[2]));
  e.qr_free(rec);
  return { head: Buffer.from(copy).toString('hex'), res };
}
let checked = 0, golden = 0;
for (const c of cases) {
  if (typeof c.text !== 'string' || c.text.length > 8000) continue;
  const op = c.options ?? {};
  const symbol = { micro: op.micro, version: op.version, minVersion: op['min-version'], mask: op.mask, boostEc: op['boost-ec'] };
  const o = {
    ec: EC.indexOf(op['ec-level'] ?? 'low'), min: op['min-size'] ?? 200, qz: op['quiet-zone'] ?? 4, scale: op.scale,
    dark: parseColor(op.dark ?? '#000000ff'), light: parseColor(op.light ?? '#ffffffff'), flags: symbolFlags(symbol), ...symbol,
  };
  if (o.ec < 0 || o.dark === null || o.light === null) continue;
  for (const fn of ['qr_png', 'qr_svg']) {
    const r = ms.map((m) => out(m, fn, c.text, o));
    for (const x of r) if (!x.res.equals(r[0].res)) throw new Error(`${c.id} ${fn} differs`);
    const want = expected[c.id][fn === 'qr_png' ? 'png_sha256' : 'svg_sha256'];
    if (want && createHash('sha256').update(r[0].res).digest('hex') === want) golden++;
    checked++;
  }
}
console.log(`outputs identical across ${names.join(', ')} on ${checked} calls; ${golden} equal golden digests`);
const url = 'https://www.reddit.com/r/rustjerk/top/?t=all';
const o = { ec: 0, min: 200, qz: 4, scale: undefined, dark: 0x000000ff, light: 0xffffffff, flags: 0 };
const TIMES = 20;
const res = Object.fromEntries(names.map((n) => [n, []]));
for (let r = -5; r < Number(process.env.ROUNDS ?? 60); r++) {
  const order = ms.map((_, i) => (i + r + 100) % ms.length);
  for (const i of order) {
    const m = ms[i];
    let dt = Infinity;
    for (let k = 0; k < 3; k++) {
      const t = process.hrtime.bigint();
      const { rec, e } = m.call('qr_png_repeat', url, o, [TIMES]);
      dt = Math.min(dt, Number(process.hrtime.bigint() - t) / TIMES / 1e3);
      e.qr_free(rec);
    }
    if (r >= 0) res[m.name].push(dt);
  }
}
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.round(p * (s.length - 1))]; };
for (const n of names) {
  const ratio = res[n].map((v, i) => v / res[names[0]][i]);
  console.log(n.padEnd(10), 'guest-only us/png', q(res[n], .5).toFixed(1), `[${q(res[n], .1).toFixed(1)}, ${q(res[n], .9).toFixed(1)}]`, ` /${names[0]} per round ${q(ratio, .5).toFixed(3)} [${q(ratio, .1).toFixed(3)}, ${q(ratio, .9).toFixed(3)}]`);
}

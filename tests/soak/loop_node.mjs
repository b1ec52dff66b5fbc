// In-process soak loop for Node (tests/soak/soak.py): every in-process path
// of the package (component, raw, bindgen, native) in one process,
// round-robin over the ten reference texts at a fixed rate until SECONDS
// pass; every result is compared with its golden digest first, then with
// the first result. The soak samples this process's RSS from outside.
// Usage: node loop_node.mjs SECONDS CALLS_PER_SECOND
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const root = new URL('../../', import.meta.url);
const [seconds, rate] = process.argv.slice(2).map(Number);
const cases = JSON.parse(readFileSync(new URL('tests/vectors/cases.json', root))).cases;
const expected = JSON.parse(readFileSync(new URL('tests/vectors/expected.json', root)));
const texts = cases.filter((c) => /^ref-\d\d$/.test(c.id)).map((c) => [c.id, c.text]);
const paths = {};
for (const name of ['index', 'raw', 'bindgen', 'native']) {
  paths[name] = (await import(new URL(`hosts/node/${name}.js`, root))).png;
}
const golden = {};
for (const [name, png] of Object.entries(paths)) {
  for (const [id, text] of texts) {
    const digest = createHash('sha256').update(png(text)).digest('hex');
    if (digest !== expected[id].png_sha256) {
      console.error(`${name}: ${id} is not its golden PNG`);
      process.exit(1);
    }
    golden[id] ??= Buffer.from(png(text));
  }
}
const jobs = Object.entries(paths).flatMap(([name, png]) => texts.map(([id, text]) => [name, png, id, text]));
const start = performance.now();
let calls = 0;
for (;;) {
  const elapsed = (performance.now() - start) / 1000;
  if (elapsed >= seconds) break;
  const [name, png, id, text] = jobs[calls % jobs.length];
  if (!golden[id].equals(png(text))) {
    console.error(`${name}: ${id} changed after ${calls} calls`);
    process.exit(1);
  }
  calls += 1;
  // A fixed rate (the machine is shared); sleeping also lets the GC and
  // the event loop run as in a real process.
  const ahead = calls / rate - elapsed;
  if (ahead > 0.005) await sleep(ahead * 1000);
}
console.log(JSON.stringify({ host: 'node', paths: Object.keys(paths), calls }));

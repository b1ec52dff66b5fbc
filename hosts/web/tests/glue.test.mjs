// The page imports the Node host's glue files as they are (hosts/node/lib), so
// they must stay runtime-agnostic: no Node module, no Buffer, no process, no
// file reads. The browser tests prove the paths work; this names the file and
// the line when one of them starts using Node again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const SHARED = ['common.js', 'component.js', 'raw.js', 'bindgen.js'];
const NODE_ONLY = [/\bfrom\s+['"]node:/, /\bimport\(\s*['"]node:/, /\brequire\(/, /\bBuffer\b/, /\bprocess\./, /\breadFileSync\b/, /\b__dirname\b/];

test('the glue the page shares with hosts/node uses no Node API', () => {
  for (const name of SHARED) {
    const lines = readFileSync(new URL(`../../node/lib/${name}`, import.meta.url), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, ''); // comments may name what the entry points do
      for (const pattern of NODE_ONLY) {
        assert.doesNotMatch(code, pattern, `hosts/node/lib/${name}:${i + 1}: ${line.trim()}`);
      }
    });
  }
});

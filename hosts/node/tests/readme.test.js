// The README's usage example runs as written, and says what it does: the
// first ```js block of README.md runs as a module in a child process (the
// package imports itself by name, as a user's project imports it), followed by
// checks of the values its comments name, so a comment cannot drift from
// the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const nodeDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('README: the usage example runs and its comments hold', () => {
  const block = readme.match(/```js\n([\s\S]*?)```/);
  assert.ok(block, 'README.md has no ```js block');
  const checks = `
    const need = (ok, what) => { if (!ok) throw new Error('README comment does not hold: ' + what); };
    need(bytes instanceof Uint8Array && bytes.length === 398, 'png(reference URL): Uint8Array, 398 bytes');
    need(typeof doc === 'string' && doc.includes('<svg '), 'svg: a string');
    need(url.startsWith('data:image/png;base64,'), 'pngDataUrl');
    need(width === 21, 'matrix(hello): 21 modules per side');
    need(matrix('12345', { micro: true }).width === 11, 'M1, 11 modules');
    need(corner === true, 'isDark(matrix, 0, 0): a finder pattern');
    need(fluid.includes('<title>Our menu</title>') && fluid.includes('class="qr"'), 'viewBoxOnly svg');
    need(key instanceof Uint8Array && key.length > 0, 'png(bytes)');
    console.log('checked');`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', block[1] + checks],
    { cwd: nodeDir, encoding: 'utf8' });
  assert.match(out, /empty-text/, "the example's catch prints the error kind");
  assert.match(out, /[▀▄█]/, 'text(..., half-blocks-inverted) printed half blocks');
  assert.match(out, /checked\n$/);
});

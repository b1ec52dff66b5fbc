// Installable: `npm pack` carries both .wasm files, and the tarball installed
// into an empty project (offline: the package has no runtime dependencies)
// serves both entry points with the golden digest, and `npx qrglue` (the CLI,
// package.json "bin") writes it. It carries the native
// path's loader but no platform binary: there, 'qrglue/native' says how to
// build the addon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expected, REFERENCE_URL, sha256 } from './support/fixtures.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

test('npm pack -> install into an empty project -> both entry points give the golden PNG', (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'qrglue-pack-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));

  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', scratch], packageDir));
  const files = packed.files.map((f) => f.path);
  for (const required of ['cli.js', 'wasm/qrglue.component.wasm', 'wasm/qrglue.raw.wasm', 'gen/qrglue.core.wasm',
    'gen/qrglue.js', 'index.js', 'raw.js', 'index.d.ts', 'raw.d.ts', 'lib/common.js',
    'lib/component.js', 'lib/raw.js', 'lib/options.js', 'lib/option-types.d.ts', 'package.json', 'README.md',
    'bindgen.js', 'bindgen.d.ts', 'lib/bindgen.js', 'gen/bindgen/qrglue.js', 'gen/bindgen/qrglue_bg.wasm',
    'native.js', 'native.d.ts', 'lib/native.js']) {
    assert.ok(files.includes(required), `tarball lacks ${required}`);
  }
  // The probes are the bench's and the tests' (imported by path), not the package's.
  for (const absent of ['probe.js', 'probe.d.ts', 'native-probe.js', 'native-probe.d.ts']) {
    assert.ok(!files.includes(absent), `tarball carries ${absent}`);
  }
  for (const path of files) {
    assert.doesNotMatch(path, /^(node_modules|tests?|bench|scripts|conformance|native)\//, `tarball carries ${path}`);
    assert.doesNotMatch(path, /\.node$/, `tarball carries a platform binary: ${path}`);
  }

  const project = join(scratch, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', join(scratch, packed.filename), '--offline', '--no-audit', '--no-fund'], project);

  const script = `
    import { createHash } from 'node:crypto';
    const digest = (b) => createHash('sha256').update(b).digest('hex');
    const out = {};
    for (const entry of ['qrglue', 'qrglue/raw', 'qrglue/bindgen']) {
      const m = await import(entry);
      out[entry] = { png: digest(m.png(${JSON.stringify(REFERENCE_URL)})), kind: (() => { try { m.png(''); } catch (e) { return e.kind; } })(),
        bytes: digest(m.png(new TextEncoder().encode(${JSON.stringify(REFERENCE_URL)}))) };
    }
    out.probe = await import('qrglue/probe').then(() => 'exported', (e) => e.code);
    out.nativeProbe = await import('qrglue/native/probe').then(() => 'exported', (e) => e.code);
    out.native = await import('qrglue/native').then(() => 'loaded', (e) => /no native addon.*just build-node/s.test(e.message));
    console.log(JSON.stringify(out));`;
  const result = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script],
    { cwd: project, encoding: 'utf8' }));
  const want = expected['ref-02'].png_sha256;
  assert.deepEqual(result, {
    qrglue: { png: want, kind: 'empty-text', bytes: want },
    'qrglue/raw': { png: want, kind: 'empty-text', bytes: want },
    'qrglue/bindgen': { png: want, kind: 'empty-text', bytes: want },
    probe: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    nativeProbe: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    native: true,
  });

  // The `qrglue` command (package.json "bin": cli.js), as npx finds it in the project.
  // (npm's own warnings about this machine's npm config are dropped from stderr.)
  const npx = (args) => {
    const run = spawnSync('npx', ['--no-install', 'qrglue', ...args], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    return { ...run, stderr: run.stderr.toString().replace(/^npm warn .*\n/gm, '') };
  };
  const toStdout = npx(['png', REFERENCE_URL, '-o', '-', '--path', 'raw']);
  assert.equal(toStdout.status, 0, toStdout.stderr);
  assert.equal(sha256(toStdout.stdout), want);
  const toFile = npx(['svg', REFERENCE_URL, '-o', 'ref.svg']);
  assert.equal(toFile.status, 0, toFile.stderr);
  assert.equal(sha256(readFileSync(join(project, 'ref.svg'))), expected['ref-02'].svg_sha256);
  const refused = npx(['png', '', '-o', '-']);
  assert.deepEqual([refused.status, refused.stderr], [1, 'qrglue: empty-text: text is empty\n']);
  assert.equal(npx(['png', 'x', '--path', 'jit']).status, 2);
  assert.match(npx(['--help']).stdout.toString(), /^QR codes as PNG or SVG.*\nUsage: qrglue <COMMAND>\n/s);
  const native = npx(['png', 'x', '-o', '-', '--path', 'native']);
  assert.equal(native.status, 3);
  assert.match(native.stderr, /^qrglue: qrglue\/native: no native addon/);
});

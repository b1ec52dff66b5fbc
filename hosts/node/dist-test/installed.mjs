// `just test-dist` (after `just dist`): the npm tarballs of target/dist/
// installed as a user installs them, with `npm install <tarballs>` into a fresh
// project outside the repository, never from hosts/node itself.
//
// - Both tarballs (qrglue and this machine's platform package): 'qrglue' gives
//   the golden PNG of the reference URL, 'qrglue/native' loads its addon from
//   node_modules/qrglue-<triple>/ (the only .node file loaded), and
//   'qrglue/auto' chooses native.
// - qrglue's tarball alone (its optional dependencies are not on the registry:
//   npm skips this machine's, as it skips a platform package whose os/cpu/libc
//   do not match, e.g. linux-arm64-gnu's here): 'qrglue' and 'qrglue/auto' (now the component path) give the
//   golden PNG, 'qrglue/native' throws QRGLUE_NO_ADDON, and no .node is loaded.
// (Not named *.test.mjs, so `node --test` in hosts/node, which runs without
// target/dist, does not pick it up.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const nodeDir = fileURLToPath(new URL('..', import.meta.url));
const repo = join(nodeDir, '../..');
const dist = join(repo, 'target/dist');
const { version, napi } = JSON.parse(readFileSync(join(nodeDir, 'package.json'), 'utf8'));
const golden = JSON.parse(readFileSync(join(repo, 'tests/vectors/expected.json'), 'utf8'))['ref-02'];
const REFERENCE_URL = 'https://www.reddit.com/r/rustjerk/top/?t=all';

// This machine's napi-rs platformArchABI, as scripts/dist.mjs packs it (x86_64-unknown-linux-gnu -> linux-x64-gnu).
const TRIPLE = `${process.platform}-${process.arch}-${readFileSync('/usr/bin/ldd', 'utf8').includes('musl') ? 'musl' : 'gnu'}`;
const mainTarball = join(dist, `qrglue-${version}.tgz`);
const platformTarball = join(dist, `qrglue-${TRIPLE}-${version}.tgz`);

function tarJson(tarball, path) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, `package/${path}`], { encoding: 'utf8' }));
}

function tarList(tarball) {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
}

/** A fresh project in the temp dir with `tarballs` installed by npm; returns its directory. */
function installInto(t, tarballs) {
  const project = mkdtempSync(join(tmpdir(), 'qrglue-dist-'));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync('npm', ['install', ...tarballs, '--no-audit', '--no-fund'],
    { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  return realpathSync(project);
}

// Runs in the project: every entry's PNG digest (or the error), and the .node files loaded.
const PROBE = `
  import { createHash } from 'node:crypto';
  import { createRequire } from 'node:module';
  const digest = (b) => createHash('sha256').update(b).digest('hex');
  const url = ${JSON.stringify(REFERENCE_URL)};
  const out = {};
  for (const entry of ['qrglue', 'qrglue/native', 'qrglue/auto']) {
    try {
      const m = await import(entry);
      out[entry] = { png: digest(m.png(url)), svg: digest(m.svg(url)), path: m.path ?? null };
    } catch (error) {
      out[entry] = { code: error.code, message: error.message };
    }
  }
  out.resolved = import.meta.resolve('qrglue');
  out.addons = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.endsWith('.node'));
  console.log(JSON.stringify(out));`;

// The same from CommonJS: require() of each entry (require(esm), Node >= 20.19; no entry uses top-level await).
const PROBE_CJS = `
  const { createHash } = require('node:crypto');
  const digest = (b) => createHash('sha256').update(b).digest('hex');
  const url = ${JSON.stringify(REFERENCE_URL)};
  const out = {};
  for (const entry of ['qrglue', 'qrglue/native', 'qrglue/auto']) {
    try {
      const m = require(entry);
      out[entry] = { png: digest(m.png(url)), svg: digest(m.svg(url)), path: m.path ?? null };
    } catch (error) {
      out[entry] = { code: error.code, message: error.message };
    }
  }
  console.log(JSON.stringify(out));`;

function probe(project) {
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', PROBE],
    { cwd: project, encoding: 'utf8' }));
  const cjs = JSON.parse(execFileSync(process.execPath, ['--input-type=commonjs', '-e', PROBE_CJS],
    { cwd: project, encoding: 'utf8' }));
  // require() gives every entry exactly what import gives (or the same error).
  for (const entry of ['qrglue', 'qrglue/native', 'qrglue/auto']) assert.deepEqual(cjs[entry], out[entry], `require('${entry}')`);
  return out;
}

test('target/dist holds napi-rs\'s layout: qrglue with optionalDependencies, and the platform package with the addon', () => {
  // This machine's target here; linux-arm64-gnu's package in installed-arm64.mjs (run under qemu-user).
  assert.deepEqual(napi.targets, ['x86_64-unknown-linux-gnu', 'aarch64-unknown-linux-gnu'], 'the targets these tests know how to check');
  assert.ok(existsSync(mainTarball), `${mainTarball}: run \`just dist\``);
  assert.ok(existsSync(platformTarball), `${platformTarball}: run \`just dist\``);

  const main = tarJson(mainTarball, 'package.json');
  assert.equal(main.version, version);
  assert.deepEqual(main.optionalDependencies, { 'qrglue-linux-x64-gnu': version, 'qrglue-linux-arm64-gnu': version });
  assert.equal(main.exports['./auto'].default, './auto.js');
  const mainFiles = tarList(mainTarball);
  for (const file of ['auto.js', 'native.js', 'lib/native.js', 'index.js', 'wasm/qrglue.component.wasm', 'gen/qrglue.core.wasm']) {
    assert.ok(mainFiles.includes(`package/${file}`), `qrglue's tarball lacks ${file}`);
  }
  assert.deepEqual(mainFiles.filter((f) => f.endsWith('.node')), [], 'the main package carries no addon');

  const platform = tarJson(platformTarball, 'package.json');
  assert.deepEqual(
    { name: platform.name, version: platform.version, os: platform.os, cpu: platform.cpu, libc: platform.libc, main: platform.main },
    { name: `qrglue-${TRIPLE}`, version, os: [process.platform], cpu: [process.arch], libc: ['glibc'], main: `qrglue.${TRIPLE}.node` });
  assert.deepEqual(tarList(platformTarball), ['package/README.md', 'package/package.json', `package/qrglue.${TRIPLE}.node`]);
  // The packed addon is the one `just build-node` built.
  const packed = execFileSync('tar', ['-xzOf', platformTarball, `package/qrglue.${TRIPLE}.node`]);
  assert.ok(packed.equals(readFileSync(join(nodeDir, 'native', `qrglue.${process.platform}-${process.arch}.node`))),
    'the platform package\'s addon differs from native/\'s build');
});

test('npm install of both tarballs: qrglue/native loads the addon from the platform package; golden on every entry', (t) => {
  const project = installInto(t, [mainTarball, platformTarball]);
  const out = probe(project);
  const installed = join(project, 'node_modules');
  assert.equal(fileURLToPath(out.resolved), join(installed, 'qrglue', 'index.js'), 'qrglue resolves to the installed copy');
  const want = { png: golden.png_sha256, svg: golden.svg_sha256 };
  assert.deepEqual(out.qrglue, { ...want, path: null });
  assert.deepEqual(out['qrglue/native'], { ...want, path: null });
  assert.deepEqual(out['qrglue/auto'], { ...want, path: 'native' });
  // One addon, the platform package's (not the repository's native/ build).
  assert.deepEqual(out.addons.map((p) => realpathSync(p)), [join(installed, `qrglue-${TRIPLE}`, `qrglue.${TRIPLE}.node`)]);
});

test('npm install of qrglue alone (no platform package): qrglue/auto falls back to wasm, qrglue/native says why', (t) => {
  const project = installInto(t, [mainTarball]);
  assert.ok(!existsSync(join(project, 'node_modules', `qrglue-${TRIPLE}`)), 'npm installed a platform package');
  const out = probe(project);
  assert.deepEqual(out.qrglue, { png: golden.png_sha256, svg: golden.svg_sha256, path: null });
  assert.deepEqual(out['qrglue/auto'], { png: golden.png_sha256, svg: golden.svg_sha256, path: 'component' });
  assert.equal(out['qrglue/native'].code, 'QRGLUE_NO_ADDON');
  assert.match(out['qrglue/native'].message, new RegExp(`no native addon for ${process.platform}-${process.arch} \\(neither the package qrglue-${TRIPLE} `));
  assert.deepEqual(out.addons, []);
});

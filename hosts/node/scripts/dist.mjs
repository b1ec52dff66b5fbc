#!/usr/bin/env node
// The npm side of `just dist`: napi-rs's per-platform layout, done with what
// the napi CLI (@napi-rs/cli, not a dependency here: hosts/node/README.md,
// "Installing") would do, step for step:
//
//   napi create-npm-dirs  npm/<platformArchABI>/package.json and README.md for
//                         every target of package.json "napi" (committed; this
//                         script checks they are what create-npm-dirs writes,
//                         `--write-npm-dirs` rewrites them, e.g. after a version bump)
//   napi artifacts        every target's addon copied into its package as
//                         qrglue.<platformArchABI>.node: this machine's from
//                         `just build-node` (native/), the others from their
//                         cross build (target/cross/<triple>/addon/, e.g.
//                         tools/arm64/build.sh for aarch64-unknown-linux-gnu)
//   napi pre-publish      the main package.json gains "optionalDependencies",
//                         one platform package per target at the same version
//                         (in a staged copy: the repository's package.json has
//                         none, so hosts/node's own `npm install` never asks
//                         the registry for them)
//
// and `npm pack` of each into OUT (default target/dist). A target of
// package.json whose addon is missing fails the whole run (no partial dist).
//
// Usage: node hosts/node/scripts/dist.mjs [OUT] | --write-npm-dirs
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const nodeDir = fileURLToPath(new URL('..', import.meta.url));
const repo = resolve(nodeDir, '../..');
const pkg = JSON.parse(readFileSync(join(nodeDir, 'package.json'), 'utf8'));

// Rust target triple -> napi-rs's parts (its parseTriple, for the targets it names).
const CPU = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'arm', riscv64gc: 'riscv64', s390x: 's390x', powerpc64le: 'ppc64' };
const OS = { linux: 'linux', darwin: 'darwin', windows: 'win32', freebsd: 'freebsd', android: 'android' };
function parseTriple(triple) {
  const [arch, , sys, abi] = triple.split('-');
  if (!(arch in CPU) || !(sys in OS)) throw new Error(`dist: target ${triple} is not one this script knows`);
  const platform = OS[sys];
  const cpu = CPU[arch];
  const platformArchABI = abi ? `${platform}-${cpu}-${abi}` : `${platform}-${cpu}`;
  return { triple, platform, arch: cpu, abi: abi ?? null, platformArchABI };
}

const targets = pkg.napi.targets.map(parseTriple);
const binaryName = pkg.napi.binaryName;

// What `napi create-npm-dirs` writes for a target (its field order).
function npmDir(target) {
  const binary = `${binaryName}.${target.platformArchABI}.node`;
  const json = {
    name: `${pkg.name}-${target.platformArchABI}`,
    version: pkg.version,
    cpu: [target.arch],
    main: binary,
    files: [binary],
  };
  for (const field of ['description', 'keywords', 'author', 'authors', 'homepage', 'license', 'engines',
    'publishConfig', 'repository', 'bugs']) {
    if (pkg[field] !== undefined) json[field] = pkg[field];
  }
  json.os = [target.platform];
  if (target.abi === 'gnu') json.libc = ['glibc'];
  else if (target.abi === 'musl') json.libc = ['musl'];
  return {
    dir: join(nodeDir, 'npm', target.platformArchABI),
    binary,
    'package.json': `${JSON.stringify(json, null, 2)}\n`,
    'README.md': `# \`${json.name}\`\n\nThis is the **${target.triple}** binary for \`${pkg.name}\`\n`,
  };
}

if (process.argv[2] === '--write-npm-dirs') {
  for (const target of targets) {
    const want = npmDir(target);
    mkdirSync(want.dir, { recursive: true });
    for (const file of ['package.json', 'README.md']) writeFileSync(join(want.dir, file), want[file]);
    console.log(`wrote npm/${target.platformArchABI}/`);
  }
  process.exit(0);
}

const out = resolve(process.argv[2] ?? join(repo, 'target/dist'));
mkdirSync(out, { recursive: true });

function npmPack(cwd) {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  return packed;
}

// Every target's directory is what create-npm-dirs writes (so a version bump cannot leave one behind).
for (const target of targets) {
  const want = npmDir(target);
  for (const file of ['package.json', 'README.md']) {
    const path = join(want.dir, file);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== want[file]) {
      throw new Error(`dist: npm/${target.platformArchABI}/${file} is not what napi create-npm-dirs writes for ` +
        `package.json (version ${pkg.version}): run \`node hosts/node/scripts/dist.mjs --write-npm-dirs\``);
    }
  }
}

// Where each target's addon was built: this machine's by `just build-node`, the others by their cross build.
const hostAbi = process.platform === 'linux'
  ? (readFileSync('/usr/bin/ldd', 'utf8').includes('musl') ? 'musl' : 'gnu')
  : process.platform === 'win32' ? 'msvc' : null;
const LIBRARY = { linux: 'libqrglue_node_native.so', darwin: 'libqrglue_node_native.dylib', win32: 'qrglue_node_native.dll' };
function builtAddon(target) {
  if (target.platform === process.platform && target.arch === process.arch && target.abi === hostAbi) {
    return { path: join(nodeDir, 'native', `qrglue.${process.platform}-${process.arch}.node`), how: '`just build-node`' };
  }
  return { path: join(repo, 'target/cross', target.triple, 'addon', LIBRARY[target.platform]), how: 'its cross build (`just dist`)' };
}
const missing = targets.map((t) => ({ t, ...builtAddon(t) })).filter(({ path }) => !existsSync(path));
if (missing.length > 0) {
  throw new Error(`dist: no addon for ${missing.map(({ t, path, how }) => `${t.triple} at ${path} (built by ${how})`).join(', ')}: ` +
    'every target of package.json "napi".targets is packed');
}
// napi artifacts, then each platform package packed.
const platformPacked = targets.map((target) => {
  const dir = npmDir(target);
  copyFileSync(builtAddon(target).path, join(dir.dir, dir.binary));
  return npmPack(dir.dir);
});

// The main package, staged with its optionalDependencies (napi pre-publish), then packed.
const stage = join(repo, 'target/dist-stage/qrglue');
rmSync(stage, { recursive: true, force: true });
const [listed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'],
  { cwd: nodeDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
for (const { path } of listed.files) {
  mkdirSync(dirname(join(stage, path)), { recursive: true });
  cpSync(join(nodeDir, path), join(stage, path));
}
const staged = { ...pkg, optionalDependencies: Object.fromEntries(targets.map((t) => [`${pkg.name}-${t.platformArchABI}`, pkg.version])) };
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
const mainPacked = npmPack(stage);
if (process.env.QRGLUE_VERBOSE) {
  for (const packed of [mainPacked, ...platformPacked]) console.log(`${packed.filename}: ${packed.entryCount} files`);
}

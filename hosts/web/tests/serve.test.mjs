// The static server: what it serves, with which headers, and what it refuses.
// Plain node:http requests (no browser), so every path and header is exact.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { servedPath, startServer } from '../serve.mjs';

// Raw requests: fetch() would normalise "/a/../b" before sending it.
function request(port, rawPath, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve.mjs over the repository', () => {
  let server;
  let port;
  before(async () => {
    server = await startServer({ port: 0 });
    port = server.address().port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  test('listens on 127.0.0.1 only', () => {
    assert.equal(server.address().address, '127.0.0.1');
  });

  test('"/" is the page, with the isolation headers', async () => {
    const res = await request(port, '/?text=hello');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin');
    assert.equal(res.headers['cross-origin-embedder-policy'], 'require-corp');
    assert.match(res.body.toString(), /<script type="module" src="\/hosts\/web\/main.js">/);
  });

  test('.wasm is application/wasm, modules are JavaScript, both with the headers', async () => {
    const wasm = await request(port, '/hosts/node/gen/qrglue.core.wasm');
    assert.equal(wasm.status, 200, 'hosts/node/gen is built by `just build-node`');
    assert.equal(wasm.headers['content-type'], 'application/wasm');
    assert.deepEqual([...wasm.body.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
    assert.equal(wasm.headers['cross-origin-embedder-policy'], 'require-corp');
    const js = await request(port, '/hosts/node/lib/common.js');
    assert.equal(js.status, 200);
    assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(js.headers['cross-origin-opener-policy'], 'same-origin');
  });

  test('the bench settings file is served as JSON, nothing else of tests/', async () => {
    const res = await request(port, '/tests/bench/settings.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(res.body.toString()), JSON.parse(readFileSync(new URL('../../../tests/bench/settings.json', import.meta.url), 'utf8')));
  });

  test('HEAD answers the headers and no body', async () => {
    const res = await request(port, '/hosts/web/main.js', 'HEAD');
    assert.equal(res.status, 200);
    assert.ok(Number(res.headers['content-length']) > 0);
    assert.equal(res.body.length, 0);
  });

  test('other methods are 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await request(port, '/hosts/web/main.js', method);
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.allow, 'GET, HEAD');
    }
  });

  test('nothing outside the served folders, however the path is spelled', async () => {
    const refused = [
      '/README.md', '/.git/config', '/justfile', '/hosts/node/package.json', '/guest/core/src/lib.rs',
      '/hosts/web/../../README.md', '/hosts/web/%2e%2e/%2e%2e/README.md', '/hosts/web/..%2f..%2fREADME.md',
      '/hosts/web/%2E%2E%5C%2E%2E%5CREADME.md', '/hosts/web/..\\..\\README.md', '/hosts/node/lib/../../../etc/passwd',
      '/hosts/web/node_modules/playwright-core/package.json', '/hosts/web/tests/serve.test.mjs', '/hosts/web/tools/harness.mjs',
      '/hosts/web/main.js%00.html', '/hosts/web/%E0%A4%A', '//etc/passwd', '/hosts/web//main.js',
      '/hosts/web/', '/hosts/web', '/hosts/web/missing.js',
      '/tests/bench/README.md', '/tests/bench/settings.json.bak', '/tests/bench/', '/tests/vectors/cases.json',
    ];
    for (const rawPath of refused) {
      const res = await request(port, rawPath);
      assert.equal(res.status, 404, rawPath);
      assert.equal(res.body.toString(), 'not found\n', rawPath);
    }
  });

  test('a malformed request line does not bring the server down', async () => {
    const { connect } = await import('node:net');
    await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('GARBAGE \x00\r\n\r\n'));
      socket.on('close', resolve);
      socket.on('error', resolve);
      socket.resume();
    });
    assert.equal((await request(port, '/')).status, 200);
  });
});

describe('servedPath', () => {
  test('maps URL paths to repository paths under the served folders', () => {
    assert.equal(servedPath('/'), 'hosts/web/index.html');
    assert.equal(servedPath('/index.html'), 'hosts/web/index.html');
    assert.equal(servedPath('/hosts/web/main.js'), 'hosts/web/main.js');
    assert.equal(servedPath('/hosts/node/gen/qrglue.js'), 'hosts/node/gen/qrglue.js');
    assert.equal(servedPath('/hosts/node/lib/%63ommon.js'), 'hosts/node/lib/common.js');
    assert.equal(servedPath('/hosts/node/index.js'), null);
    assert.equal(servedPath('/hosts/node/lib/../index.js'), null);
  });
});

describe('a symlink inside a served folder that leads out of the root', () => {
  let root;
  let server;
  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'qrglue-serve-'));
    const outside = mkdtempSync(path.join(os.tmpdir(), 'qrglue-outside-'));
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    mkdirSync(path.join(root, 'hosts/web'), { recursive: true });
    writeFileSync(path.join(root, 'hosts/web/index.html'), '<!doctype html>');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'hosts/web/leak.js'));
    server = await startServer({ port: 0, root });
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  test('is not followed', async () => {
    const { port } = server.address();
    assert.equal((await request(port, '/')).status, 200);
    const res = await request(port, '/hosts/web/leak.js');
    assert.equal(res.status, 404);
    assert.ok(!res.body.toString().includes('secret'));
  });
});

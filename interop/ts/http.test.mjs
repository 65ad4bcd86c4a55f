// The whole story over Streamable HTTP: `ttywright --http` with its bearer
// token, driven by the official TypeScript SDK v2 client
// (@modelcontextprotocol/client) in both eras, pinned to 2026-07-28 and to
// 2025-11-25: shell_start, shell_send with wait_for_command, an inline
// screenshot and its resource read as a blob, a subscription's update over
// SSE (subscriptions/listen in 2026-07-28, resources/subscribe and the GET
// stream in 2025-11-25), shell_stop. Then the MCP Inspector's CLI
// (@modelcontextprotocol/inspector) connects with --transport http.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test http.test.mjs
// (the Go test TestTypeScriptHTTP in ../ts_test.go builds the binary and runs this).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const bin = process.env.TTYWRIGHT_BIN;
const here = path.dirname(fileURLToPath(import.meta.url));
const inspectorBin = path.join(here, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const WAIT_MS = 15000;

// startHTTP runs the binary on a free loopback port with a token file of
// its own; it resolves to the URL, the token and a stop function.
async function startHTTP() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-http-ts-'));
  const tokenFile = path.join(dir, 'token');
  const proc = spawn(bin, ['--http', '127.0.0.1:0', '--http-token-file', tokenFile, '--output-dir', path.join(dir, 'out')],
    { env: { ...process.env, SHELL: '/bin/bash' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${stderr}`)), WAIT_MS);
    proc.stderr.on('data', d => {
      stderr += d;
      const m = /serving MCP on (\S+)/.exec(stderr);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', code => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const token = fs.readFileSync(tokenFile, 'utf8').trim();
  const stop = async () => {
    const exited = new Promise(r => proc.on('exit', (code, signal) => r({ code, signal })));
    proc.kill('SIGTERM');
    const { code } = await exited;
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0, `server exit: ${stderr}`);
  };
  return { url, token, stop, stderr: () => stderr };
}

function structured(res) {
  return res.structuredContent ?? JSON.parse(res.content.find(c => c.type === 'text').text);
}

for (const era of ['2026-07-28', '2025-11-25']) {
  test(`TypeScript SDK v2 over HTTP at ${era}`, { skip: !bin && 'set TTYWRIGHT_BIN', timeout: 90000 }, async () => {
    const srv = await startHTTP();
    const modern = era === '2026-07-28';
    const client = new Client({ name: 'ttywright-interop-http', version: '1.0.0' }, { versionNegotiation: { mode: modern ? { pin: era } : 'legacy' } });
    const updates = [];
    client.setNotificationHandler('notifications/resources/updated', n => { updates.push(n.params.uri); });
    const transport = new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: { Authorization: `Bearer ${srv.token}` } } });
    const call = async (name, args) => {
      const res = await client.callTool({ name, arguments: args }, { timeout: 2 * WAIT_MS });
      assert.ok(!res.isError, `${name}: ${JSON.stringify(res.content)}`);
      return res;
    };
    try {
      await client.connect(transport);
      assert.equal(client.getNegotiatedProtocolVersion(), era);
      const started = structured(await call('shell_start', {
        command: '/bin/bash', args: ['--norc', '--noprofile', '-i'],
        env: { PS1: 'tw$ ', HISTFILE: '/dev/null' },
      }));
      const id = started.shell_session_id;
      assert.ok(id, JSON.stringify(started));
      await call('shell_wait', { session_id: id, wait_for: 'tw$', timeout_ms: WAIT_MS });
      const sent = structured(await call('shell_send', { session_id: id, input: 'echo ts-http-$((6*7))\r', wait_for_command: true }));
      assert.equal(sent.command?.exit_code, 0, JSON.stringify(sent));

      const buf = `session://${id}/buffer`;
      let sub;
      if (modern) {
        sub = await client.listen({ resourceSubscriptions: [buf] });
        assert.deepEqual(sub.honoredFilter.resourceSubscriptions, [buf]);
      } else {
        await client.subscribeResource({ uri: buf });
      }
      await call('shell_send', { session_id: id, input: 'echo tick$((2+2))\r', wait_for: 'tick4' });
      for (let i = 0; i < 100 && !updates.includes(buf); i++) await new Promise(r => setTimeout(r, 50));
      assert.ok(updates.includes(buf), `no notifications/resources/updated for ${buf}: ${updates}`);
      if (sub) await sub.close();

      const shot = await call('shell_screenshot', { session_id: id, name: 'ts-http', inline: true });
      const img = shot.content.find(c => c.type === 'image');
      assert.equal(img?.mimeType, 'image/png');
      assert.equal(Buffer.from(img.data, 'base64').subarray(1, 4).toString(), 'PNG');
      const read = await client.readResource({ uri: structured(shot).uri });
      assert.equal(Buffer.from(read.contents[0].blob, 'base64').subarray(1, 4).toString(), 'PNG');

      await call('shell_stop', { session_id: id });
    } finally {
      await client.close();
      await srv.stop();
    }
  });
}

test('MCP Inspector CLI, --transport http', { skip: !bin && 'set TTYWRIGHT_BIN', timeout: 90000 }, async () => {
  const srv = await startHTTP();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-inspector-http-'));
  const env = {
    ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: path.join(home, 'client.json'), MCP_INSPECTOR_SECRET_STORE: 'memory',
  };
  const cli = (...args) => JSON.parse(execFileSync(process.execPath,
    [inspectorBin, '--cli', '--transport', 'http', '--format', 'json', '--quiet', `${srv.url}/${srv.token}`, ...args],
    { env, encoding: 'utf8', timeout: 60000 }));
  try {
    const { result: tl } = cli('--method', 'tools/list');
    const names = tl.tools.map(x => x.name);
    for (const name of ['shell_start', 'shell_send', 'shell_screenshot', 'shell_stop']) assert.ok(names.includes(name), `tools/list lacks ${name}`);
    const { result: rl } = cli('--method', 'resources/read', '--uri', 'themes://list');
    assert.match(rl.contents[0].text, /one-dark/);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
    await srv.stop();
  }
});

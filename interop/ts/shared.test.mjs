// Sessions that outlive the client, as Claude Code would live them, through
// the official TypeScript SDK client (Client + StdioClientTransport) and
// `ttywright --shared`: client A starts `python3 -m http.server` named web
// and vim on a file named editor, types, and exits; client B, a new process,
// finds both in sessions://list, reads vim's screen unchanged, saves the
// file and fetches it from the server; a tmux pane running
// `ttywright attach editor` watches the whole time. Each run has its own
// socket directory (XDG_RUNTIME_DIR) and HOME, and stops its service.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test shared.test.mjs
// (the Go test TestTypeScriptShared in ../ts_test.go builds the binary and runs this).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = process.env.TTYWRIGHT_BIN;
const WAIT_MS = 15000;

function textOf(res) {
  return res.content.filter(c => c.type === 'text').map(c => c.text).join('');
}

// freePort asks the kernel for a loopback port nobody uses.
async function freePort() {
  const srv = net.createServer();
  await new Promise(r => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise(r => srv.close(r));
  return port;
}

// until polls cond (every 20 ms) until it holds, failing after WAIT_MS.
async function until(what, cond) {
  const end = Date.now() + WAIT_MS;
  for (;;) {
    const got = await cond();
    if (got) return got;
    assert.ok(Date.now() < end, `timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 20));
  }
}

test('sessions outlive the client (--shared)', { timeout: 120000 }, async (t) => {
  assert.ok(bin, 'set TTYWRIGHT_BIN to the ttywright binary');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-shared-'));
  const dirs = {};
  for (const d of ['run', 'home', 'out', 'work', 'tmux']) {
    dirs[d] = path.join(tmp, d);
    fs.mkdirSync(dirs[d], { mode: 0o700 });
  }
  fs.writeFileSync(path.join(dirs.work, 'notes.txt'), 'first line\n');
  const env = { ...process.env, XDG_RUNTIME_DIR: dirs.run, HOME: dirs.home, SHELL: '/bin/bash' };
  const port = await freePort();
  const tmuxSock = path.join(dirs.tmux, 'sock');
  const tmux = (...args) => execFileSync('tmux', ['-S', tmuxSock, ...args], { env, encoding: 'utf8' });
  const pane = () => tmux('capture-pane', '-p', '-t', 'w');

  // connect starts a front end as an MCP client would, named as the client.
  const connect = async (name) => {
    const transport = new StdioClientTransport({
      command: bin, args: ['--shared', '--output-dir', dirs.out], env, cwd: dirs.work, stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', d => { stderr += d; });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    const call = async (tool, args) => {
      const res = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 2 * WAIT_MS });
      assert.ok(!res.isError, `${name}: ${tool}(${JSON.stringify(args)}) failed: ${textOf(res)}\nstderr: ${stderr}`);
      return res;
    };
    return { client, call, transport };
  };

  let screenA;
  try {
    await t.test('client A starts the web server and vim, types, and exits', async () => {
      const a = await connect('claude-code');
      const web = await a.call('shell_start', { command: 'python3', args: ['-m', 'http.server', String(port), '--bind', '127.0.0.1'], name: 'web' });
      assert.equal(web.structuredContent.name, 'web');
      assert.equal(web.structuredContent.cwd, dirs.work, 'the default cwd is the client\'s');
      await a.call('shell_wait', { session_id: 'web', wait_for: 'Serving HTTP', timeout_ms: WAIT_MS });
      await a.call('shell_start', { command: 'vim', args: ['-u', 'DEFAULTS', '-i', 'NONE', 'notes.txt'], name: 'editor', cols: 80, rows: 24 });
      await a.call('shell_wait', { session_id: 'editor', wait_for: 'notes.txt', wait_idle_ms: 200, timeout_ms: WAIT_MS });

      // The person's view opens now and stays through both clients.
      tmux('new-session', '-d', '-s', 'w', '-x', '80', '-y', '25', `${bin} attach editor; echo DETACHED; sleep 600`);
      await until('the attach pane to show vim', () => pane().includes('first line'));

      await a.call('shell_send', { session_id: 'editor', input: 'Go', text: 'hello from A', keys: ['Escape'], wait_for: 'hello from A', wait_idle_ms: 200 });
      screenA = textOf(await a.call('shell_read', { session_id: 'editor' }));
      await until('the attach pane to show what A typed', () => pane().includes('hello from A'));
      await a.client.close(); // the front end exits; the service and its sessions live on
    });

    await t.test('client B finds both sessions, reads vim unchanged, saves and fetches', async () => {
      const b = await connect('cursor');
      const { contents } = await b.client.readResource({ uri: 'sessions://list' });
      const list = JSON.parse(contents[0].text);
      const byName = Object.fromEntries(list.map(s => [s.name, s]));
      for (const name of ['web', 'editor']) {
        assert.ok(byName[name], `sessions://list lacks ${name}: ${contents[0].text}`);
        assert.equal(byName[name].client, 'claude-code');
        assert.equal(byName[name].exited, false);
        assert.ok(Date.parse(byName[name].last_driven) >= Date.parse(byName[name].started));
      }
      const screenB = textOf(await b.call('shell_read', { session_id: 'editor' }));
      assert.equal(screenB, screenA, 'vim\'s screen changed between the clients');

      await b.call('shell_send', { session_id: 'editor', input: ':w\r', wait_for: 'written' });
      assert.equal(fs.readFileSync(path.join(dirs.work, 'notes.txt'), 'utf8'), 'first line\nhello from A\n');
      const res = await fetch(`http://127.0.0.1:${port}/notes.txt`);
      assert.equal(await res.text(), 'first line\nhello from A\n');
      const log = await b.call('shell_read', { session_id: 'web' });
      assert.match(textOf(log), /GET \/notes\.txt/);
      await until('the attach pane to show the save', () => pane().includes('written'));
      assert.ok(!pane().includes('DETACHED'), 'the attach pane detached');

      await b.call('shell_stop', { session_id: 'editor' });
      await b.call('shell_stop', { session_id: 'web' });
      await until('the attach pane to say the program ended', () => pane().includes('the program exited'));
      tmux('send-keys', '-t', 'w', 'C-]', 'd');
      await until('the person to detach', () => pane().includes('DETACHED'));
      await b.client.close();
    });
  } finally {
    try { execFileSync(bin, ['service', 'stop'], { env }); } catch {}
    try { tmux('kill-server'); } catch {}
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

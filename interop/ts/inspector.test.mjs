// Drives the ttywright binary with the MCP Inspector
// (@modelcontextprotocol/inspector) pinned to the stateless 2026-07-28
// era: `inspector --cli --protocol-era modern` for one-shot requests (each
// run starts its own server process), and the Inspector's connection CLI
// `mcpdo connect --era modern`, which keeps one server process across
// commands, for a whole terminal session: shell_start, shell_send,
// shell_screenshot, a resources/read of the buffer, shell_stop. A wrapper
// records what the Inspector wrote to the server's stdin, so the test also
// checks the wire: server/discover first, every request with the
// per-request envelope, no initialize.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test inspector.test.mjs
// (the Go test TestInspector in ../ts_test.go builds the binary and runs this).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = process.env.TTYWRIGHT_BIN;
const here = path.dirname(fileURLToPath(import.meta.url));
const inspectorBin = path.join(here, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const mcpdoBin = path.join(here, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'mcpdo', 'build', 'mcp-bin.js');
// TOOLS are tools the session below uses; the list has more.
const TOOLS = ['shell_start', 'shell_send', 'shell_read', 'shell_screenshot', 'shell_stop'];

// setup makes a private home (the Inspector keeps its catalog, secrets and
// daemon there), an output directory, and a wrapper that tees the server's
// stdin to wire.log before running the binary.
function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-inspector-'));
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const wire = path.join(dir, 'wire.log');
  const wrapper = path.join(dir, 'ttywright.sh');
  fs.writeFileSync(wrapper, `#!/bin/sh\ntee -a '${wire}' | exec '${bin}' --output-dir '${out}'\n`, { mode: 0o755 });
  const env = {
    ...process.env, HOME: dir, MCP_CATALOG_PATH: path.join(dir, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: path.join(dir, 'client.json'), MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_INSPECTOR_DAEMON_DIR: path.join(dir, 'daemon'), MCP_INSPECTOR_DAEMON_TOKEN: 'ttywright-interop-test-token-0123456789',
  };
  return { dir, wire, wrapper, env };
}

// messages returns what the Inspector sent to the server, one object a line.
function messages(wire) {
  return fs.readFileSync(wire, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
}

// checkWire asserts the modern era on the wire: discover first, an envelope
// on every request, no initialize or other legacy-only method.
function checkWire(wire) {
  const msgs = messages(wire);
  const requests = msgs.filter(m => m.id !== undefined && m.method);
  assert.equal(requests[0]?.method, 'server/discover', `first request: ${JSON.stringify(requests[0])}`);
  for (const m of requests) {
    assert.notEqual(m.method, 'initialize', 'the Inspector fell back to initialize');
    assert.equal(m.params?._meta?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28', `${m.method} without the envelope`);
  }
  return requests;
}

test('MCP Inspector, protocol era modern', { skip: !bin && 'set TTYWRIGHT_BIN' }, async (t) => {
  const { dir, wire, wrapper, env } = setup();
  const cli = (...args) => JSON.parse(execFileSync(process.execPath,
    [inspectorBin, '--cli', '--protocol-era', 'modern', '--format', 'json', '--quiet', wrapper, ...args],
    { env, encoding: 'utf8', timeout: 60000 }));
  const mcpdo = (...args) => {
    const text = execFileSync(process.execPath, [mcpdoBin, '--format', 'json', ...args],
      { env, encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] });
    return text.trim() ? JSON.parse(text) : {};
  };
  try {
    await t.test('inspector --cli: tools/list, resources and prompts', () => {
      const { result: tl } = cli('--method', 'tools/list');
      const names = tl.tools.map(x => x.name);
      for (const name of TOOLS) assert.ok(names.includes(name), `tools/list lacks ${name}: ${names}`);
      const { result: again } = cli('--method', 'tools/list');
      assert.deepEqual(again.tools.map(x => x.name), names, 'tools in a deterministic order');
      for (const tool of tl.tools) {
        assert.ok(tool.icons?.[0]?.src.startsWith('data:image/png;base64,'), `${tool.name} lacks its icon`);
      }
      const { result: rd } = cli('--method', 'resources/read', '--uri', 'themes://list');
      assert.ok(JSON.parse(rd.contents[0].text).some(th => th.name === 'one-dark'));
      const { result: tm } = cli('--method', 'resources/templates/list');
      assert.ok(tm.resourceTemplates.some(x => x.uriTemplate === 'session://{id}/buffer'));
      const { result: pg } = cli('--method', 'prompts/get', '--prompt-name', 'terminal-basics');
      assert.ok(pg.messages[0].content.text.includes('shell_start'));
      const { result: st } = cli('--method', 'tools/call', '--tool-name', 'shell_start',
        '--tool-args-json', JSON.stringify({ command: 'bash', args: ['--norc', '--noprofile'] }));
      assert.equal(st.isError, false, JSON.stringify(st));
      assert.ok(st.structuredContent.shell_session_id);
      const reqs = checkWire(wire);
      for (const m of ['tools/list', 'resources/read', 'resources/templates/list', 'prompts/get', 'tools/call']) {
        assert.ok(reqs.some(r => r.method === m), `no ${m} on the wire`);
      }
      fs.rmSync(wire);
    });

    await t.test('mcpdo --era modern: one terminal session across commands', () => {
      const conn = mcpdo('connect', '--era', 'modern', '--connection', 'tw', wrapper);
      assert.equal(conn.protocolEra, 'modern', JSON.stringify(conn));
      const call = (name, args) => {
        const res = mcpdo('--connection', 'tw', 'tools/call', name, JSON.stringify(args));
        assert.equal(res.isError, false, `${name}: ${JSON.stringify(res)}`);
        return res.structuredContent;
      };
      try {
        const id = call('shell_start', { command: 'bash', args: ['--norc', '--noprofile'] }).shell_session_id;
        const sent = call('shell_send', { session_id: id, input: 'echo inspector-$((6*7))\r', wait_for: 'inspector-42' });
        assert.equal(sent.matched, true, JSON.stringify(sent));
        const shot = call('shell_screenshot', { session_id: id });
        assert.ok(fs.statSync(shot.png_path).size > 0, JSON.stringify(shot));
        const buf = mcpdo('--connection', 'tw', 'resources/read', `session://${id}/buffer`);
        assert.ok(buf.contents[0].text.includes('inspector-42'), JSON.stringify(buf));
        const stop = call('shell_stop', { session_id: id });
        assert.equal(stop.success, true, JSON.stringify(stop));
      } finally {
        mcpdo('disconnect', 'tw');
        mcpdo('daemon', 'stop');
      }
      const reqs = checkWire(wire);
      assert.deepEqual(reqs.filter(r => r.method === 'tools/call').map(r => r.params.name),
        ['shell_start', 'shell_send', 'shell_screenshot', 'shell_stop']);
    });
  } finally {
    try { mcpdo('daemon', 'stop'); } catch { /* stopped already */ }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

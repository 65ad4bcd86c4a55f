// Drives the ttywright binary with the official MCP TypeScript SDK client
// (Client + StdioClientTransport): initialize, every tool, every resource
// kind and template, a subscription update, every prompt, completion.
// The SDK also checks each structuredContent against the tool's outputSchema.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test interop.test.mjs
// (the Go test TestTypeScriptSDK in ../ts_test.go builds the binary and runs this).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceUpdatedNotificationSchema,
  ResourceListChangedNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const bin = process.env.TTYWRIGHT_BIN;
const WAIT_MS = 15000;
const PROMPT = 'tw$ ';
const PROMPT_WAIT = 'tw$'; // the screen text has trailing blanks trimmed

// TOOLS are the server's tools, as testdata/tools/list.json (the product's
// reviewed golden of tools/list) lists them, as the Go interop tests read it.
const TOOLS = JSON.parse(fs.readFileSync(new URL('../../testdata/tools/list.json', import.meta.url), 'utf8')).tools.map(t => t.name);
const TEMPLATES = ['session://{id}/info', 'session://{id}/buffer', 'session://{id}/screenshots',
  'session://{id}/screenshots/{name}', 'session://{id}/recordings',
  'session://{id}/recordings/{name}', 'theme://{name}'];
const PROMPTS = ['vim-edit', 'record-session', 'terminal-basics', 'theme-selection', 'tui-navigate'];

// structured returns a tool result's structuredContent, or its JSON text.
function structured(res) {
  if (res.structuredContent) return res.structuredContent;
  return JSON.parse(res.content.find(c => c.type === 'text').text);
}

function textOf(res) {
  return res.content.filter(c => c.type === 'text').map(c => c.text).join('');
}

// alive reports whether pid still runs (a zombie awaiting init counts as gone).
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid, ms) {
  const end = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > end) return false;
    await new Promise(r => setTimeout(r, 20));
  }
  return true;
}

test('official TypeScript SDK client', { timeout: 120000 }, async (t) => {
  assert.ok(bin, 'set TTYWRIGHT_BIN to the ttywright binary');
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-ts-'));
  const transport = new StdioClientTransport({
    command: bin,
    args: ['--output-dir', outDir],
    env: { ...process.env, SHELL: '/bin/bash' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', d => { stderr += d; });
  const client = new Client({ name: 'ttywright-interop-ts', version: '1.0.0' });
  const updates = [];
  let listChanged = 0;
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => { updates.push(n.params.uri); });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { listChanged++; });
  const pids = [];
  const call = async (name, args) => {
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 2 * WAIT_MS });
    assert.ok(!res.isError, `${name}(${JSON.stringify(args)}) failed: ${textOf(res)}`);
    const s = structured(res);
    if (name === 'shell_start') pids.push(s.pid);
    return s;
  };
  // waitFor waits for text on the screen and shows the screen when it never comes.
  const waitFor = async (id, text) => {
    const r = await call('shell_wait', { session_id: id, wait_for: text, timeout_ms: WAIT_MS });
    if (r.matched !== true) {
      const screen = await client.callTool({ name: 'shell_read', arguments: { session_id: id, raw: true } });
      assert.fail(`${text} never appeared: ${JSON.stringify(r)}; raw output: ${JSON.stringify(textOf(screen))}`);
    }
    return r;
  };
  const until = async (what, cond) => {
    const end = Date.now() + WAIT_MS;
    while (!cond()) {
      assert.ok(Date.now() < end, `timed out waiting for ${what}`);
      await new Promise(r => setTimeout(r, 20));
    }
  };

  try {
    await client.connect(transport);

    await t.test('initialize and tools/list', async () => {
      assert.equal(client.getServerVersion().name, 'ttywright');
      const caps = client.getServerCapabilities();
      assert.ok(caps.tools && caps.resources && caps.prompts, JSON.stringify(caps));
      await client.ping();
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map(x => x.name).sort(), [...TOOLS].sort());
      for (const tool of tools) {
        assert.ok(tool.description && tool.inputSchema && tool.outputSchema, `${tool.name} lacks schemas`);
      }
      assert.equal(tools.find(x => x.name === 'shell_read').annotations?.readOnlyHint, true);
      assert.equal(tools.find(x => x.name === 'shell_stop').annotations?.destructiveHint, true);
      await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }),
        e => e instanceof McpError && e.code === -32602);
      // This SDK speaks the legacy era (initialize): resource not found is
      // -32002, with a hint naming the themes.
      await assert.rejects(client.readResource({ uri: 'theme://nope' }),
        e => e instanceof McpError && e.code === -32002 && e.message.includes('themes://list'));
    });

    let id;
    await t.test('every tool', async () => {
      const st = await call('shell_start', {
        command: '/bin/bash', args: ['--norc', '--noprofile', '-i'],
        env: { PS1: PROMPT, HISTFILE: '/dev/null' }, cols: 90, rows: 24, theme: 'dracula',
      });
      id = st.shell_session_id;
      assert.equal(st.cols, 90);
      assert.equal(st.theme, 'dracula');
      let r = await waitFor(id, PROMPT_WAIT);
      r = await call('shell_send', { session_id: id, input: 'echo ts-$((40+2))\\r', wait_for: 'ts-42', timeout_ms: WAIT_MS });
      assert.equal(r.matched, true);
      const read = await client.callTool({ name: 'shell_read', arguments: { session_id: id } });
      assert.match(textOf(read), /ts-42/);
      assert.equal(read.structuredContent.cols, 90);
      r = await call('shell_wait', { session_id: id, wait_for: '/never-\\d+-printed/', timeout_ms: 200 });
      assert.equal(r.matched, false);

      const shot = await client.callTool({ name: 'shell_screenshot', arguments: { session_id: id, name: 'ts-shot', inline: true } });
      assert.ok(!shot.isError, textOf(shot));
      const img = shot.content.find(c => c.type === 'image');
      assert.equal(img?.mimeType, 'image/png');
      assert.equal(Buffer.from(img.data, 'base64').subarray(1, 4).toString(), 'PNG');
      assert.ok(fs.statSync(shot.structuredContent.png_path).size > 0);
      assert.ok(shot.content.some(c => c.type === 'resource_link' && c.uri === shot.structuredContent.uri));

      r = await call('shell_record_start', { session_id: id, fps: 10 });
      assert.ok(r.recording, JSON.stringify(r));
      await call('shell_send', { session_id: id, input: 'for i in 1 2 3; do echo r-$i; sleep 0.1; done\\r', wait_for: 'r-3', timeout_ms: WAIT_MS });
      r = await call('shell_record_stop', { session_id: id, name: 'ts-rec' });
      assert.ok(r.frame_count >= 2, JSON.stringify(r));
      assert.equal(fs.readFileSync(r.gif_path).subarray(0, 6).toString(), 'GIF89a');

      r = await call('shell_resize', { session_id: id, cols: 100, rows: 30 });
      assert.deepEqual([r.cols, r.rows], [100, 30]);
      await call('shell_send', { session_id: id, input: 'stty size\\r', wait_for: '30 100', timeout_ms: WAIT_MS });

      const bad = await client.callTool({ name: 'shell_send', arguments: { session_id: 'nope', input: 'x' } });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /nope/);
    });

    await t.test('resources, templates and a subscription', async () => {
      const { resources } = await client.listResources();
      const uris = resources.map(r => r.uri);
      for (const u of ['sessions://list', 'themes://list', `session://${id}/info`, `session://${id}/buffer`,
        `session://${id}/screenshots`, `session://${id}/screenshots/ts-shot`,
        `session://${id}/recordings`, `session://${id}/recordings/ts-rec`, 'theme://nord']) {
        assert.ok(uris.includes(u), `resources/list lacks ${u}`);
      }
      for (const u of uris) {
        const { contents } = await client.readResource({ uri: u });
        assert.equal(contents.length, 1, u);
        const c = contents[0];
        if (c.mimeType === 'application/json') JSON.parse(c.text);
        else if (c.mimeType === 'image/png') assert.equal(Buffer.from(c.blob, 'base64').subarray(1, 4).toString(), 'PNG');
        else if (c.mimeType === 'image/gif') assert.equal(Buffer.from(c.blob, 'base64').subarray(0, 3).toString(), 'GIF');
        else assert.ok(['text/plain', 'application/x-asciicast'].includes(c.mimeType), `${u}: ${c.mimeType}`);
      }
      const { resourceTemplates } = await client.listResourceTemplates();
      for (const tpl of TEMPLATES) {
        assert.ok(resourceTemplates.some(r => r.uriTemplate === tpl), `templates lack ${tpl}`);
      }
      await assert.rejects(client.readResource({ uri: 'session://no-such/info' }),
        e => e instanceof McpError && e.code === -32002);

      const buf = `session://${id}/buffer`;
      await client.subscribeResource({ uri: buf });
      updates.length = 0;
      await call('shell_send', { session_id: id, input: 'echo sub-$((3*3))\\r', wait_for: 'sub-9', timeout_ms: WAIT_MS });
      await until(`notifications/resources/updated for ${buf}`, () => updates.includes(buf));
      await client.unsubscribeResource({ uri: buf });
      const before = listChanged;
      await call('shell_screenshot', { session_id: id, name: 'ts-shot-2' });
      await until('notifications/resources/list_changed', () => listChanged > before);
    });

    await t.test('prompts and completion', async () => {
      const { prompts } = await client.listPrompts();
      for (const name of PROMPTS) assert.ok(prompts.some(p => p.name === name), `prompts lack ${name}`);
      for (const p of prompts) {
        const args = {};
        for (const a of p.arguments ?? []) {
          args[a.name] = /session/.test(a.name) ? id : /theme/.test(a.name) ? 'nord' : /file|path/.test(a.name) ? '/tmp/notes.txt' : 'example';
        }
        const g = await client.getPrompt({ name: p.name, arguments: args });
        assert.ok(g.messages.length > 0 && /shell_/.test(g.messages[0].content.text), `prompt ${p.name}`);
      }
      let c = await client.complete({ ref: { type: 'ref/resource', uri: 'session://{id}/info' }, argument: { name: 'id', value: '' } });
      assert.ok(c.completion.values.includes(id), JSON.stringify(c));
      c = await client.complete({ ref: { type: 'ref/resource', uri: 'theme://{name}' }, argument: { name: 'name', value: 'so' } });
      assert.ok(c.completion.values.includes('solarized-dark'), JSON.stringify(c));
      c = await client.complete({
        ref: { type: 'ref/resource', uri: 'session://{id}/recordings/{name}' },
        argument: { name: 'name', value: 'ts' }, context: { arguments: { id } },
      });
      assert.ok(c.completion.values.includes('ts-rec'), JSON.stringify(c));
    });

    // The vim edit written the natural way: wait for the file name, type,
    // :wq, wait for the prompt. The echo of "vim notes.txt" must not end the
    // first wait (the keys would reach the shell as typeahead), and the
    // shell's screen must end in a clean prompt.
    await t.test('vim edit with natural waits', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-vim-'));
      const st = await call('shell_start', {
        command: '/bin/bash', args: ['--norc', '--noprofile', '-i'], cwd: dir,
        env: { PS1: PROMPT, HISTFILE: '/dev/null', HOME: dir }, cols: 80, rows: 24,
      });
      const vid = st.shell_session_id;
      await waitFor(vid, PROMPT);
      let r = await call('shell_send', { session_id: vid, input: 'vim notes.txt\r', wait_for: 'notes.txt', timeout_ms: WAIT_MS });
      assert.equal(r.matched, true, JSON.stringify(r));
      assert.ok(!r.bufferAfter.includes(PROMPT + 'vim notes.txt'), `returned on the echo: ${r.bufferAfter}`);
      await call('shell_send', { session_id: vid, input: 'ihello from vim\\rsecond line' });
      r = await call('shell_send', { session_id: vid, input: '\\e:wq\\r', wait_for: PROMPT, timeout_ms: WAIT_MS });
      assert.equal(r.matched, true, JSON.stringify(r));
      const lines = r.bufferAfter.split('\n');
      assert.equal(lines[lines.length - 1], PROMPT, `the shell's screen: ${JSON.stringify(r.bufferAfter)}`);
      assert.ok(!/ihello|\^\[/.test(r.bufferAfter), `typeahead on the shell's screen: ${r.bufferAfter}`);
      assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'hello from vim\nsecond line\n');
      await call('shell_stop', { session_id: vid });
      fs.rmSync(dir, { recursive: true, force: true });
    });

    await t.test('shell_stop', async () => {
      const r = await call('shell_stop', { session_id: id });
      assert.equal(r.success, true);
      const late = await client.callTool({ name: 'shell_send', arguments: { session_id: id, input: 'x' } });
      assert.equal(late.isError, true);
    });
  } catch (e) {
    if (stderr) console.error('server stderr:\n' + stderr);
    throw e;
  } finally {
    const serverPid = transport.pid;
    await client.close();
    if (serverPid) assert.ok(await gone(serverPid, 5000), `server pid ${serverPid} did not exit`);
    for (const pid of pids) assert.ok(await gone(pid, 5000), `child pid ${pid} is an orphan`);
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});

// shell_ask_secret through the official MCP TypeScript SDK v2 client
// (@modelcontextprotocol/client), which plays the person's client: its
// elicitation/create handler (URL mode) opens the one-time page over HTTP
// as a browser would (GET, the form's CSRF token, a POST from the page's
// own Origin), types a random secret and answers {action: "accept"}.
// Both eras: pinned to 2026-07-28, where the server answers with an
// input_required result that the client fulfils through the same handler
// and retries (inputRequired.autoFulfill), and the legacy 2025-11-25,
// where the server sends elicitation/create and, after,
// notifications/elicitation/complete. python3's getpass reads the secret
// and prints its SHA-256: the reply shows that line, and the secret is in
// nothing the client received (the server's stdout, recorded byte for
// byte by a wrapper), nor in what it sent, nor in the server's stderr.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test secret.test.mjs
// (the Go test TestTypeScriptSecret in ../ts_test.go builds the binary and runs this).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const bin = process.env.TTYWRIGHT_BIN;
const WAIT_MS = 15000;
const PROMPT = 'tw$ ';
const SCRIPT = 'import getpass, hashlib; s = getpass.getpass("Passphrase: "); print("got", hashlib.sha256(s.encode()).hexdigest())';

function structured(res) {
  if (res.structuredContent) return res.structuredContent;
  return JSON.parse(res.content.find(c => c.type === 'text').text);
}

function textOf(res) {
  return res.content.filter(c => c.type === 'text').map(c => c.text).join('');
}

// newSecret is a random secret with a space and form metacharacters, its
// random core (unchanged by any escaping) and the line SCRIPT prints.
function newSecret() {
  const core = crypto.randomBytes(12).toString('hex');
  const secret = `pw +&=%/${core}`;
  return { secret, core, printed: 'got ' + crypto.createHash('sha256').update(secret).digest('hex') };
}

// personTypes loads the page, checks its headers, and submits secret with
// the form's CSRF token from the page's own origin; it returns the
// submit's status and page.
async function personTypes(pageURL, secret) {
  const get = await fetch(pageURL);
  const page = await get.text();
  assert.equal(get.status, 200, `GET ${pageURL}: ${page}`);
  assert.match(get.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  assert.equal(get.headers.get('cache-control'), 'no-store');
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  assert.ok(csrf && page.includes('type="password"'), `the page has no csrf or no password field: ${page}`);
  const post = await fetch(pageURL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(pageURL).origin },
    body: new URLSearchParams({ csrf, secret }).toString(),
  });
  return { status: post.status, page: await post.text() };
}

// setup makes an output directory and a wrapper that records the bytes
// the client sent (in.log) and received (out.log) around the binary.
function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-ts-secret-'));
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const sent = path.join(dir, 'in.log');
  const received = path.join(dir, 'out.log');
  const wrapper = path.join(dir, 'ttywright.sh');
  fs.writeFileSync(wrapper, `#!/bin/sh\ntee -a '${sent}' | '${bin}' --output-dir '${out}' | tee -a '${received}'\n`, { mode: 0o755 });
  return { dir, sent, received, wrapper };
}

// messages parses a wire log, one JSON-RPC message a line.
function messages(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
}

for (const era of ['2026-07-28', '2025-11-25']) {
  test(`shell_ask_secret, TypeScript SDK v2 client at ${era}`, { timeout: 60000 }, async () => {
    assert.ok(bin, 'set TTYWRIGHT_BIN to the ttywright binary');
    const { dir, sent, received, wrapper } = setup();
    const { secret, core, printed } = newSecret();
    const transport = new StdioClientTransport({
      command: wrapper,
      env: { ...process.env, SHELL: '/bin/bash' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', d => { stderr += d; });
    const modern = era === '2026-07-28';
    const client = new Client({ name: 'ttywright-interop-ts-secret', version: '1.0.0' }, {
      capabilities: { elicitation: { url: {} } },
      ...(modern ? { versionNegotiation: { mode: { pin: era } }, inputRequired: { autoFulfill: true } } : {}),
    });
    const asked = [];
    const completed = [];
    const submits = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const p = request.params;
      asked.push(p);
      if (p.mode !== 'url' || !p.url.startsWith('http://127.0.0.1:')) return { action: 'decline' };
      submits.push(await personTypes(p.url, secret));
      return { action: 'accept' };
    });
    client.setNotificationHandler('notifications/elicitation/complete', n => { completed.push(n.params.elicitationId); });
    const call = async (name, args) => {
      const res = await client.callTool({ name, arguments: args }, { timeout: 2 * WAIT_MS });
      assert.ok(!res.isError, `${name}(${JSON.stringify(args)}) failed: ${textOf(res)}`);
      return res;
    };
    try {
      await client.connect(transport);
      assert.equal(client.getNegotiatedProtocolVersion(), era);

      const start = structured(await call('shell_start', {
        command: '/bin/bash', args: ['--norc', '--noprofile', '-i'],
        env: { PS1: PROMPT, HISTFILE: '/dev/null', LC_ALL: 'C.UTF-8' },
      }));
      const id = start.shell_session_id;
      assert.equal(structured(await call('shell_wait', { session_id: id, wait_for: 'tw$', timeout_ms: WAIT_MS })).matched, true);
      const atPrompt = structured(await call('shell_send', {
        session_id: id, input: `python3 -c '${SCRIPT}'\\r`, wait_for_input: true, timeout_ms: WAIT_MS,
      }));
      assert.equal(atPrompt.input, 'secret', `python3's getpass: ${JSON.stringify(atPrompt)}`);

      const res = await call('shell_ask_secret', { session_id: id, message: 'interop: unlock the test key', timeout_ms: 60000 });
      assert.equal(asked.length, 1, `elicitation/create requests: ${JSON.stringify(asked)}`);
      assert.equal(asked[0].mode, 'url');
      assert.ok(asked[0].message.includes('interop: unlock the test key') && asked[0].message.includes('python3'), asked[0].message);
      assert.equal(submits[0].status, 200, submits[0].page);
      assert.match(submits[0].page, /Sent/);
      const r = structured(res);
      assert.equal(r.delivered, true, JSON.stringify(r));
      assert.equal(r.action, 'accept');
      assert.equal(r.url, undefined, 'the reply holds the link although the client showed it');
      assert.ok(textOf(res).includes(printed), `the reply lacks ${printed}: ${textOf(res)}`);

      // The page worked once.
      assert.notEqual((await fetch(asked[0].url).catch(() => ({ status: 0 }))).status, 200);

      const raw = await call('shell_read', { session_id: id, raw: true, max_bytes: 1 << 20 });
      assert.ok(textOf(raw).includes(printed), 'the raw output lacks the hash line');

      if (modern) {
        // No server-to-client request in this era: the page came in an
        // input_required result, and the retry carried the answer.
        const fromServer = messages(received);
        assert.ok(!fromServer.some(m => m.method === 'elicitation/create'), 'a server-to-client elicitation/create at 2026-07-28');
        const ir = fromServer.find(m => m.result?.resultType === 'input_required');
        assert.ok(ir, 'no input_required result');
        assert.equal(ir.result.inputRequests.secret.method, 'elicitation/create');
        assert.equal(ir.result.inputRequests.secret.params.url, asked[0].url);
        const retry = messages(sent).find(m => m.method === 'tools/call' && m.params?.requestState !== undefined);
        assert.equal(retry?.params.requestState, ir.result.requestState);
        assert.equal(retry.params.inputResponses.secret.action, 'accept');
      } else {
        assert.ok(asked[0].elicitationId, 'elicitation/create without an elicitationId');
        const end = Date.now() + WAIT_MS;
        while (!completed.length && Date.now() < end) await new Promise(r => setTimeout(r, 20));
        assert.deepEqual(completed, [asked[0].elicitationId]);
      }
      await call('shell_stop', { session_id: id });
    } finally {
      await client.close();
    }
    // Nothing the client received or sent, nor the server's stderr, holds
    // the secret; what the client received holds the hash line.
    const wireIn = fs.readFileSync(received, 'utf8');
    assert.ok(wireIn.includes(printed), 'the wire log holds no hash line: the check below would mean little');
    for (const [name, what] of [['what the client received', wireIn], ['what the client sent', fs.readFileSync(sent, 'utf8')], ['the server\'s stderr', stderr]]) {
      for (const needle of [secret, core]) assert.ok(!what.includes(needle), `the secret is in ${name}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

// Signing in to `ttywright --http` with OAuth, by clients no one here
// wrote: the TypeScript SDK's client auth provider (@modelcontextprotocol/sdk,
// an OAuthClientProvider) with dynamic client registration and, when the Go
// test gives it a network namespace with a public-looking address, with a
// client metadata document served over https by this test; and mcp-remote,
// which registers, prints the sign-in URL and waits on its callback, while
// headless Chromium (Debian's, through playwright-core) plays the owner on
// the consent page. Each runs the story (start, send with wait_for_command,
// an inline screenshot, a resource read, stop), refreshes its token after
// its access token is revoked, and is refused once its grant is revoked
// (the owner denies the sign-in that follows).
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test oauth.test.mjs
// (the Go test TestOAuthTypeScript in ../oauth_test.go builds the binary,
// makes the namespace and the certificate, and runs this).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';

const bin = process.env.TTYWRIGHT_BIN;
const here = path.dirname(fileURLToPath(import.meta.url));
const WAIT_MS = 15000;
const cimd = process.env.OAUTH_CIMD_CERT && process.env.OAUTH_CIMD_KEY; // the namespace's https server

// startHTTP runs the binary with OAuth (the default) on a free loopback
// port; nextApproval() resolves to the next approval code it prints.
async function startHTTP(env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-oauth-ts-'));
  const proc = spawn(bin, ['--http', '127.0.0.1:0', '--http-token-file', path.join(dir, 'token'), '--output-dir', path.join(dir, 'out')],
    { env: { ...process.env, SHELL: '/bin/bash', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const codes = [], waiting = [];
  proc.stderr.on('data', d => {
    stderr += d;
    for (const m of String(d).matchAll(/approval code for .*: (\d{3}-\d{3}) /g)) {
      waiting.length ? waiting.shift()(m[1]) : codes.push(m[1]);
    }
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${stderr}`)), WAIT_MS);
    const look = () => { const m = /serving MCP on (\S+)/.exec(stderr); if (m) { clearTimeout(timer); resolve(m[1]); } };
    proc.stderr.on('data', look);
    proc.on('exit', code => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const stop = async () => {
    const exited = new Promise(r => proc.on('exit', code => r(code)));
    proc.kill('SIGTERM');
    assert.equal(await exited, 0, `server exit: ${stderr}`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const nextApproval = () => codes.length ? Promise.resolve(codes.shift()) : new Promise(r => waiting.push(r));
  const revoke = async token => {
    const res = await fetch(new URL('/oauth/revoke', url), { method: 'POST', body: new URLSearchParams({ token }) });
    assert.equal(res.status, 200);
  };
  return { url, issuer: new URL(url).origin, stop, nextApproval, revoke, stderr: () => stderr };
}

// owner plays the person at the consent page without a browser: it
// answers with the approval code and decision, and returns the URL the
// page sends the browser back to.
async function owner(srv, authUrl, decision) {
  const page = await (await fetch(authUrl)).text();
  const form = new URLSearchParams({ decision });
  for (const m of page.matchAll(/name="(request|csrf)" value="([^"]*)"/g)) form.set(m[1], m[2]);
  assert.ok(form.get('request'), `no consent form: ${page}`);
  form.set('approval_code', await srv.nextApproval());
  const res = await fetch(new URL('/oauth/authorize', authUrl), {
    method: 'POST', body: form, redirect: 'manual', headers: { Origin: new URL(authUrl).origin },
  });
  assert.equal(res.status, 303, await res.text());
  return new URL(res.headers.get('location'));
}

function structured(res) {
  return res.structuredContent ?? JSON.parse(res.content.find(c => c.type === 'text').text);
}

// story runs the whole story with client.
async function story(client) {
  const call = async (name, args) => {
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 2 * WAIT_MS });
    assert.ok(!res.isError, `${name}: ${JSON.stringify(res.content)}`);
    return res;
  };
  const { shell_session_id: id } = structured(await call('shell_start', {
    command: '/bin/bash', args: ['--norc', '--noprofile', '-i'], env: { PS1: 'tw$ ', HISTFILE: '/dev/null' },
  }));
  await call('shell_wait', { session_id: id, wait_for: 'tw$', timeout_ms: WAIT_MS });
  const sent = structured(await call('shell_send', { session_id: id, input: 'echo oauth-$((6*7))\r', wait_for_command: true }));
  assert.equal(sent.command?.exit_code, 0, JSON.stringify(sent));
  const shot = await call('shell_screenshot', { session_id: id, name: 'oauth', inline: true });
  assert.equal(shot.content.find(c => c.type === 'image')?.mimeType, 'image/png');
  const read = await client.readResource({ uri: structured(shot).uri });
  assert.equal(Buffer.from(read.contents[0].blob, 'base64').subarray(1, 4).toString(), 'PNG');
  await call('shell_stop', { session_id: id });
}

// Provider is the TypeScript SDK's OAuthClientProvider, kept in memory;
// its redirect is the owner at the consent page.
class Provider {
  constructor(srv, redirect, metadataUrl) {
    this.srv = srv; this.redirect = redirect; this.decision = 'approve';
    if (metadataUrl) this.clientMetadataUrl = metadataUrl;
  }
  get redirectUrl() { return this.redirect; }
  get clientMetadata() {
    return { client_name: 'TypeScript SDK interop', redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info) { this.info = info; }
  tokens() { return this.toks; }
  saveTokens(toks) { this.toks = toks; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(url) { this.back = await owner(this.srv, url.href, this.decision); }
}

// signIn connects a client through provider: the first connect is sent
// to the consent page, the code is finished, the second connect works.
async function signIn(srv, provider) {
  let transport = new StreamableHTTPClientTransport(new URL(srv.url), { authProvider: provider });
  await assert.rejects(new Client({ name: 'ttywright-oauth', version: '1.0.0' }).connect(transport), /Unauthorized/);
  const back = provider.back.searchParams;
  assert.equal(back.get('iss'), srv.issuer);
  await transport.finishAuth(back.get('code'));
  transport = new StreamableHTTPClientTransport(new URL(srv.url), { authProvider: provider });
  const client = new Client({ name: 'ttywright-oauth', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

// refreshAndRevoke: with its access token revoked the client refreshes
// (the refresh token rotates); with its grant revoked and the owner
// denying, it is refused.
async function refreshAndRevoke(srv, client, tokens, setDecision, name) {
  const before = tokens();
  await srv.revoke(before.access_token);
  await client.listTools();
  assert.notEqual(tokens().refresh_token, before.refresh_token, 'the refresh token did not rotate');
  assert.match(srv.stderr(), new RegExp(`refreshed "${name}"`));
  await srv.revoke(tokens().refresh_token);
  setDecision('deny');
  await assert.rejects(client.listTools(undefined, { timeout: 2 * WAIT_MS }));
}

test('TypeScript SDK client auth provider, dynamic client registration', { skip: !bin && 'set TTYWRIGHT_BIN', timeout: 120000 }, async () => {
  const start = Date.now();
  const srv = await startHTTP();
  const provider = new Provider(srv, 'http://127.0.0.1:1/callback');
  try {
    const client = await signIn(srv, provider);
    await story(client);
    await refreshAndRevoke(srv, client, () => provider.toks, d => { provider.decision = d; }, 'TypeScript SDK interop');
    await client.close().catch(() => {});
  } finally {
    await srv.stop();
  }
  console.log(`TypeScript SDK with DCR: ${Date.now() - start} ms`);
});

test('TypeScript SDK client auth provider, a client metadata document over https', { skip: (!bin && 'set TTYWRIGHT_BIN') || (!cimd && 'needs the network namespace of TestOAuthTypeScript'), timeout: 120000 }, async () => {
  const start = Date.now();
  const redirect = 'http://127.0.0.1:1/callback';
  let docUrl;
  const server = https.createServer({ cert: fs.readFileSync(process.env.OAUTH_CIMD_CERT), key: fs.readFileSync(process.env.OAUTH_CIMD_KEY) }, (req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ client_id: docUrl, client_name: 'TypeScript SDK by metadata', redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }));
  });
  await new Promise(r => server.listen(0, '192.0.2.1', r));
  docUrl = `https://192.0.2.1:${server.address().port}/client.json`;
  const srv = await startHTTP({ SSL_CERT_FILE: process.env.OAUTH_CIMD_CERT });
  const provider = new Provider(srv, redirect, docUrl);
  try {
    const client = await signIn(srv, provider);
    assert.equal(provider.info?.client_id, docUrl, 'the SDK did not use the metadata URL as client_id');
    await story(client);
    await refreshAndRevoke(srv, client, () => provider.toks, d => { provider.decision = d; }, 'TypeScript SDK by metadata');
    await client.close().catch(() => {});
  } finally {
    await srv.stop();
    server.close();
  }
  console.log(`TypeScript SDK with a client metadata document: ${Date.now() - start} ms`);
});

// freePort returns a port nothing listens on now.
async function freePort() {
  const s = net.createServer();
  await new Promise(r => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise(r => s.close(r));
  return port;
}

test('mcp-remote, with Chromium at the consent page', { skip: !bin && 'set TTYWRIGHT_BIN', timeout: 180000 }, async () => {
  const start = Date.now();
  const srv = await startHTTP();
  const cfgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-mcp-remote-'));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-chromium-'));
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = browser.pages()[0] || await browser.newPage();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(here, 'node_modules', 'mcp-remote', 'dist', 'proxy.js'), srv.url, String(await freePort())],
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: cfgDir, DISPLAY: '', BROWSER: 'true' },
    stderr: 'pipe',
  });
  let remoteErr = '';
  const urls = [], waiting = [];
  transport.stderr.on('data', d => {
    remoteErr += d;
    for (const m of String(d).matchAll(/Please authorize this client by visiting:\s+(\S+)/g)) {
      waiting.length ? waiting.shift()(m[1]) : urls.push(m[1]);
    }
  });
  const nextURL = () => urls.length ? Promise.resolve(urls.shift()) : new Promise(r => waiting.push(r));
  // theOwner answers the next sign-in mcp-remote asks for in Chromium.
  const theOwner = async decision => {
    await page.goto(await nextURL());
    await page.fill('#approval_code', await srv.nextApproval());
    if (decision === 'approve') {
      await Promise.all([page.waitForURL(/\/oauth\/callback/), page.click(`button[value=${decision}]`)]);
      return;
    }
    // A denial ends mcp-remote's sign-in: its callback server may be gone
    // by the time the browser gets there, so the redirect is checked as
    // the browser asks for it.
    const [req] = await Promise.all([page.waitForRequest(/\/oauth\/callback/), page.click(`button[value=${decision}]`)]);
    const q = new URL(req.url()).searchParams;
    assert.equal(q.get('error'), 'access_denied', `the denial's redirect: ${req.url()}`);
    assert.ok(q.get('iss'), `the denial's redirect has no iss (RFC 9207): ${req.url()}`);
  };
  const tokensFile = () => {
    const f = fs.readdirSync(cfgDir, { recursive: true }).find(f => f.endsWith('_tokens.json'));
    return JSON.parse(fs.readFileSync(path.join(cfgDir, f), 'utf8'));
  };
  const client = new Client({ name: 'ttywright-mcp-remote', version: '1.0.0' });
  try {
    const owned = theOwner('approve');
    await client.connect(transport, { timeout: 60000 });
    await owned;
    const name = /registered client "([^"]*)"/.exec(srv.stderr())?.[1];
    assert.ok(name, `mcp-remote did not register: ${srv.stderr()}`);
    await story(client);
    let denied = null;
    await refreshAndRevoke(srv, client, tokensFile, () => { denied = theOwner('deny'); }, name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    await denied;
  } catch (e) {
    console.log(`mcp-remote stderr:\n${remoteErr}\nttywright stderr:\n${srv.stderr()}`);
    throw e;
  } finally {
    await client.close().catch(() => {});
    await browser.close();
    await srv.stop();
    fs.rmSync(cfgDir, { recursive: true, force: true });
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  console.log(`mcp-remote with Chromium: ${Date.now() - start} ms`);
});

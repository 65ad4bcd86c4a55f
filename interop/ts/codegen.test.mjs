// Codegen round trip: an agent's session through the official MCP
// TypeScript SDK client (edit a file in vim, a failing and a passing
// command of a CLI, a pick in a dialog menu), in bash, zsh and fish, its
// session://{id}/tape replayed with `ttywright test`: it passes, and
// fails once the CLI under test prints something else.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test codegen.test.mjs
// (the Go test TestTypeScriptCodegen in ../ts_test.go builds the binary
// and runs this; it needs bash, vim and dialog).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = process.env.TTYWRIGHT_BIN;
const WAIT_MS = 6000; // each wait's timeout_ms, so the tape's @6s: the failing replay waits it out

// writeCLI writes the program under test: `greet ok` prints its greeting
// and exits 0, `greet fail` prints an error and exits 2.
function writeCLI(dir, greeting) {
  fs.writeFileSync(path.join(dir, 'greet'), `#!/bin/sh
case "$1" in
ok) echo "${greeting}"; exit 0 ;;
*) echo "greet: unknown mode: $1" >&2; exit 2 ;;
esac
`, { mode: 0o755 });
}

// replay runs `ttywright test` on the tape in dir and returns its exit
// status and report.
function replay(dir, tape) {
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'first line\n');
  const r = spawnSync(bin, ['test', '--trace-dir', path.join(dir, 'traces'), tape], { cwd: dir, encoding: 'utf8', timeout: 120000 });
  return { code: r.status, report: r.stdout + r.stderr };
}

// which is the path of the shell called name, or "" when it is not
// installed (under CI every shell must be: .ci/run installs them).
function which(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

for (const shell of ['bash', 'zsh', 'fish']) test(`a ${shell} session replayed as a tape`, { timeout: 240000 }, async (t) => {
  assert.ok(bin, 'set TTYWRIGHT_BIN to the ttywright binary');
  const shellPath = which(shell);
  if (!shellPath) {
    assert.ok(!process.env.CI, `${shell} is not installed`);
    t.skip(`${shell} is not installed`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttywright-codegen-'));
  writeCLI(dir, 'hello from greet v1');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'first line\n');
  const transport = new StdioClientTransport({
    command: bin,
    args: ['--output-dir', path.join(dir, 'out')],
    env: { ...process.env, SHELL: shellPath },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', d => { stderr += d; });
  const client = new Client({ name: 'ttywright-codegen', version: '1.0.0' });
  const call = async (name, args) => {
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 2 * WAIT_MS });
    const text = res.content.filter(c => c.type === 'text').map(c => c.text).join('');
    assert.ok(!res.isError, `${name}(${JSON.stringify(args)}) failed: ${text}`);
    const s = res.structuredContent ?? JSON.parse(text);
    assert.ok(!s.timed_out, `${name}(${JSON.stringify(args)}) timed out: ${JSON.stringify(s)}`);
    return s;
  };
  try {
    await client.connect(transport);
    const st = await call('shell_start', {
      command: shellPath, cwd: dir, cols: 80, rows: 24,
      // A clean HOME: the machine's start-up files may stall a shell.
      env: { PATH: `${dir}:${process.env.PATH}`, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config'), ZDOTDIR: dir },
    });
    const id = st.shell_session_id;
    const wait = (args) => call('shell_wait', { session_id: id, timeout_ms: WAIT_MS, ...args });

    // vim: append a line and save.
    await call('shell_send', { session_id: id, text: 'vim -u NONE -N notes.txt', keys: ['Enter'], wait_for: '"notes.txt"', timeout_ms: WAIT_MS });
    await call('shell_send', { session_id: id, input: 'Goadded in vim\x1b', wait_for: 'added in vim', timeout_ms: WAIT_MS });
    const saved = await call('shell_send', { session_id: id, input: ':wq\r', wait_for_command: true, timeout_ms: WAIT_MS });
    assert.equal(saved.command?.exit_code, 0, JSON.stringify(saved));
    await call('shell_send', { session_id: id, text: 'cat notes.txt', keys: ['Enter'] });
    await wait({ wait_for_command: true });
    await wait({ wait_for: 'added in vim' });

    // The CLI under test: a failing mode, then the passing one.
    const failed = await call('shell_send', { session_id: id, text: 'greet nope', keys: ['Enter'], wait_for_command: true, timeout_ms: WAIT_MS });
    assert.equal(failed.command?.exit_code, 2, JSON.stringify(failed));
    const ok = await call('shell_send', { session_id: id, text: 'greet ok', keys: ['Enter'], wait_for_command: true, timeout_ms: WAIT_MS });
    assert.equal(ok.command?.exit_code, 0, JSON.stringify(ok));
    // shell_start's own advice after a command: answered at once,
    // already_done, with that command; its tape must not wait for another.
    const again = await wait({ wait_for_command: true });
    assert.ok(again.already_done && again.command?.line === 'greet ok', JSON.stringify(again));
    await wait({ wait_for: 'hello from greet v1' });

    // dialog: pick the second item of a menu.
    await call('shell_send', {
      session_id: id, text: 'dialog --menu Fruit 12 40 3 apple Apple banana Banana cherry Cherry 2>pick.txt; echo "picked=$(cat pick.txt)"',
      keys: ['Enter'], wait_for: 'Cherry', wait_for_input: true, timeout_ms: WAIT_MS,
    });
    await call('shell_send', { session_id: id, keys: ['Down'], wait_for_input: true, timeout_ms: WAIT_MS });
    await call('shell_send', { session_id: id, keys: ['Enter'], wait_for: 'picked=banana', timeout_ms: WAIT_MS });
    await wait({ wait_for_command: true });

    const tape = (await client.readResource({ uri: `session://${id}/tape` })).contents[0];
    assert.equal(tape.mimeType?.split(';')[0], 'text/plain', JSON.stringify(tape.mimeType));
    const tapePath = path.join(dir, 'session.tape');
    fs.writeFileSync(tapePath, tape.text);
    t.diagnostic(`the tape:\n${tape.text}`);
    for (const want of [/^Wait\+Command@6s exit=2$/m, /^Wait\+Command@6s exit=0$/m, /^Expect@6s "hello from greet v1"$/m,
      /^Expect@6s "picked=banana"$/m, /^Escape$/m, /^Down\nWait\+Input@6s$/m]) {
      assert.match(tape.text, want);
    }
    assert.doesNotMatch(tape.text, /timed out/);
    assert.match(tape.text, /had ended already \(already_done\)/);
    await call('shell_stop', { session_id: id });
    await client.close();

    await t.test('the tape passes against the same program', () => {
      const r = replay(dir, tapePath);
      assert.equal(r.code, 0, r.report);
      assert.match(r.report, /1 passed, 0 failed/);
    });
    await t.test('and fails when the program prints something else', () => {
      writeCLI(dir, 'hello from greet v2');
      const r = replay(dir, tapePath);
      assert.equal(r.code, 1, r.report);
      assert.match(r.report, /0 passed, 1 failed/);
      assert.match(r.report, /Expect[^\n]*"hello from greet v1"/);
      assert.match(r.report, /hello from greet v2/, 'the report shows the screen it saw');
      const trace = r.report.match(/trace: (\S+)/);
      assert.ok(trace && fs.existsSync(trace[1]), `no trace in the report:\n${r.report}`);
    });
  } catch (e) {
    e.message += `\nstderr:\n${stderr}`;
    throw e;
  } finally {
    await client.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

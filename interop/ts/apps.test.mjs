// apps.test.mjs: the terminal app (ui://ttywright/terminal) in a real host
// no one here wrote: the official @modelcontextprotocol/ext-apps AppBridge
// with the official TypeScript SDK v2 client, in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core), wired as the package's
// reference host wires it (apps/host.mjs: a sandbox proxy on another
// origin, the app's HTML under the policy its _meta.ui.csp asks for). The
// client reaches ttywright over stdio, relayed by this Node side, in the
// 2026-07-28 era, and over --http from the page, in the legacy era.
//
// The same with @mcp-ui/client's AppRenderer (its own copy of the bridge,
// ext-apps 1.x, which speaks the same 2026-01-26 protocol), over --http in
// the 2026-07-28 era; it answers a request for another display mode with
// the host context's, so there the app offers none. (@mcp-ui/client
// 7.1.1 sets the host context before its bridge is connected, which the
// page logs as "Not connected" once per app; the app gets the context
// with ui/initialize all the same.)
//
// Checks, for each: the host's model-facing tool list has no app-only
// tool, and a client without the extension can call none; the app's text
// equals shell_read's after each of 10 agent steps in vim and in htop (and
// how long after shell_send returned the app showed it); Take, `ls` and
// Enter typed in the app, Give back: the program got it, the agent was told
// (refused while held, person_typed, by: "person") and the model context
// update arrived; a secret typed in the app reaches read -s and is in
// nothing the client received; a 1000x500 screen; light and dark, inline
// and fullscreen, screenshotted when SCREEN_SHOTS names a directory.
//
// Usage: TTYWRIGHT_BIN=/path/to/ttywright node --test apps.test.mjs
// (the Go test TestAppsChromium in ../apps_test.go builds the binary and runs this).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import readline from "node:readline";
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { chromium } from "playwright-core";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const bin = process.env.TTYWRIGHT_BIN;
const here = path.dirname(fileURLToPath(import.meta.url));
const shots = process.env.SCREEN_SHOTS || "";
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const WAIT_MS = 15000;
const golden = JSON.parse(fs.readFileSync(path.join(here, "..", "..", "testdata", "tools", "list.json"), "utf8")).tools.map((t) => t.name);
const appTools = ["app_screen", "app_commands", "app_keyboard", "app_secret"];

// policy is the Content-Security-Policy a host builds from an app's
// _meta.ui.csp (the specification's construction, its strict defaults for
// what is not declared).
function policy(csp) {
  const list = (a) => (Array.isArray(a) ? a.filter((d) => typeof d === "string" && !/[;\s'"]/.test(d)) : []).join(" ");
  const res = list(csp.resourceDomains);
  return ["default-src 'none'", `script-src 'self' 'unsafe-inline' ${res}`, `style-src 'self' 'unsafe-inline' ${res}`,
    `img-src 'self' data: ${res}`, `font-src 'self' ${res}`, `media-src 'self' data: ${res}`,
    `connect-src ${list(csp.connectDomains) || "'none'"}`, `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'", `base-uri ${list(csp.baseUriDomains) || "'self'"}`].join("; ");
}

// listen serves handler on host:0 and resolves to its origin.
function listen(server, host) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://${host}:${server.address().port}`)));
}

// startStdio runs the binary as a client would, its stdout lines relayed
// to the page and kept.
function startStdio() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ttywright-apps-"));
  const proc = spawn(bin, ["--output-dir", path.join(dir, "out")], { env: { ...process.env, SHELL: "/bin/bash" }, stdio: ["pipe", "pipe", "pipe"] });
  const srv = { kind: "stdio", lines: [], onLine: null, stderr: "" };
  proc.stderr.on("data", (d) => { srv.stderr += d; });
  readline.createInterface({ input: proc.stdout }).on("line", (line) => { srv.lines.push(line); srv.onLine?.(line); });
  srv.write = (line) => proc.stdin.write(line + "\n");
  srv.received = async () => srv.lines;
  srv.stop = async () => {
    const exited = new Promise((r) => proc.on("exit", r));
    proc.stdin.end();
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  srv.bare = async () => {
    const c = new Client({ name: "no-apps", version: "1" });
    await c.connect(new StdioClientTransport({ command: bin, args: ["--output-dir", path.join(dir, "bare")], env: { ...process.env, SHELL: "/bin/bash" } }));
    return c;
  };
  return srv;
}

// startHTTP runs the binary with --http, letting the host page's origin in.
async function startHTTP(hostOrigin) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ttywright-apps-http-"));
  const tokenFile = path.join(dir, "token");
  const proc = spawn(bin, ["--http", "127.0.0.1:0", "--http-token-file", tokenFile, "--http-allow-origin", hostOrigin, "--output-dir", path.join(dir, "out")],
    { env: { ...process.env, SHELL: "/bin/bash" }, stdio: ["ignore", "ignore", "pipe"] });
  const srv = { kind: "http", stderr: "" };
  srv.url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no URL on stderr: " + srv.stderr)), WAIT_MS);
    proc.stderr.on("data", (d) => {
      srv.stderr += d;
      const m = /serving MCP on (\S+)/.exec(srv.stderr);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  srv.token = fs.readFileSync(tokenFile, "utf8").trim();
  srv.stop = async () => {
    const exited = new Promise((r) => proc.on("exit", r));
    proc.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  srv.bare = async () => {
    const c = new Client({ name: "no-apps", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: { Authorization: `Bearer ${srv.token}` } } }));
    return c;
  };
  return srv;
}

let browser, hostOrigin, sandboxOrigin, servers = [];

before(async () => {
  const bundle = (await esbuild.build({ entryPoints: [path.join(here, "apps", "host.mjs")], bundle: true, write: false, format: "iife", platform: "browser",
    target: "chrome120", define: { "process.env.NODE_ENV": '"production"' }, logLevel: "error" })).outputFiles[0].text;
  const hostPage = fs.readFileSync(path.join(here, "apps", "host.html"));
  const sandboxPage = fs.readFileSync(path.join(here, "apps", "sandbox.html"));
  const hostSrv = http.createServer((req, res) => {
    const u = new URL(req.url, "http://x");
    if (u.pathname === "/host.html") { res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }); res.end(hostPage); return; }
    if (u.pathname === "/host.js") { res.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8" }); res.end(bundle); return; }
    res.writeHead(404); res.end();
  });
  const sandboxSrv = http.createServer((req, res) => {
    const u = new URL(req.url, "http://x");
    if (u.pathname !== "/sandbox.html") { res.writeHead(404); res.end(); return; }
    let csp = {};
    try { csp = JSON.parse(u.searchParams.get("csp") || "{}"); } catch { /* the strict defaults */ }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": policy(csp) });
    res.end(sandboxPage);
  });
  servers.push(hostSrv, sandboxSrv);
  // Two origins: the host's and the sandbox's (the specification wants them apart).
  hostOrigin = await listen(hostSrv, "127.0.0.1");
  sandboxOrigin = await listen(sandboxSrv, "localhost");
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
}, { timeout: 120_000 });

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

// openHost opens the host page connected to srv.
async function openHost(srv, era, renderer) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 860 }, deviceScaleFactor: 1 });
  page.on("console", (m) => { if (m.type() === "error") console.log(srv.kind + " page:", m.text()); });
  page.on("pageerror", (e) => console.log(srv.kind + " page error:", e.message, e.stack));
  if (srv.kind === "stdio") {
    await page.exposeFunction("__relaySend", (line) => { srv.write(line); });
    let chain = Promise.resolve();
    srv.onLine = (line) => { chain = chain.then(() => page.evaluate((l) => window.__relayReceive(l), line)).catch(() => {}); };
  }
  await page.goto(hostOrigin + "/host.html");
  const opts = { transport: srv.kind, url: srv.url, token: srv.token, era, renderer, sandboxURL: sandboxOrigin + "/sandbox.html" };
  const connected = await page.evaluate((o) => window.host.connect(o).then((r) => ({ version: r.version, tools: r.tools })), opts);
  if (srv.kind === "http") srv.received = () => page.evaluate(() => window.host.received);
  const h = { page, srv, ...connected };
  // call is a model's tool call through the host; show renders its app.
  h.call = async (name, args, show = false) => {
    const r = await page.evaluate(([n, a, s]) => window.host.call(n, a, s), [name, args, show]);
    return r;
  };
  h.ok = async (name, args, show = false) => {
    const r = await h.call(name, args, show);
    assert.ok(!r.isError, name + ": " + JSON.stringify(r.content));
    return r.structuredContent;
  };
  // app is the i-th app's frame: the sandbox proxy's inner frame.
  h.app = async (i) => {
    for (let end = Date.now() + WAIT_MS; ; await new Promise((r) => setTimeout(r, 20))) {
      const frame = (await page.$$(".card"))[i] && await (await page.$$(".card"))[i].$("iframe");
      const inner = frame && (await frame.contentFrame())?.childFrames()[0];
      if (inner && await inner.$("#screen").catch(() => null)) return inner;
      if (Date.now() > end) throw new Error("no app in card " + i);
    }
  };
  return h;
}

// screenOf is a frame's screen as text: each row cut of trailing blanks,
// empty rows at the end cut.
const screenJS = () => [...document.querySelectorAll("#screen .row")].map((r) => r.textContent.replace(/\s+$/, "")).join("\n").replace(/\n+$/, "");
const trim = (s) => s.split("\n").map((r) => r.replace(/\s+$/, "")).join("\n").replace(/\n+$/, "");

// readScreen is shell_read's visible screen.
async function readScreen(h, id) {
  const r = await h.ok("shell_read", { session_id: id, scrollback: false, max_bytes: 1 << 20 });
  return trim(r.text);
}

// matches waits until the app shows what shell_read reads, re-reading
// while the program changes its screen (htop's clock); it returns the
// milliseconds from since until the app showed it, the first time.
async function matches(h, app, id, since, what) {
  let want = await readScreen(h, id);
  for (let tries = 0; ; tries++) {
    try {
      await app.waitForFunction((w) => [...document.querySelectorAll("#screen .row")].map((r) => r.textContent.replace(/\s+$/, "")).join("\n").replace(/\n+$/, "") === w, want, { timeout: 3000, polling: 5 });
      return tries === 0 ? performance.now() - since : null;
    } catch (e) {
      const got = await app.evaluate(screenJS);
      const again = await readScreen(h, id);
      if (tries >= 4) assert.equal(got, again, what + ": the app's text differs from shell_read's");
      want = again;
    }
  }
}

const median = (xs) => { const s = xs.filter((x) => x !== null).sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

for (const [kind, era, renderer] of [["stdio", "2026-07-28", "bridge"], ["http", "legacy", "bridge"], ["http", "2026-07-28", "mcp-ui"]]) {
  const name = renderer === "bridge" ? "the ext-apps AppBridge" : "@mcp-ui/client's AppRenderer";
  const tag = renderer === "bridge" ? kind : renderer;
  test(`the terminal app in ${name} over ${kind} (${era})`, { skip: !bin && "set TTYWRIGHT_BIN", timeout: 600_000 }, async (t) => {
    const srv = kind === "stdio" ? startStdio() : await startHTTP(hostOrigin);
    const h = await openHost(srv, era, renderer);
    const latencies = [];
    try {
      await t.test("the model's tools have no app-only tool; a client without the extension gets none", async () => {
        assert.deepEqual(await h.page.evaluate(() => window.host.modelTools()), golden);
        for (const name of appTools) {
          const tool = h.tools.find((x) => x.name === name);
          assert.deepEqual(tool?._meta?.ui?.visibility, ["app"], name);
        }
        for (const name of ["shell_start", "shell_read"]) assert.equal(h.tools.find((x) => x.name === name)._meta.ui.resourceUri, "ui://ttywright/terminal");
        const bare = await srv.bare();
        try {
          assert.deepEqual((await bare.listTools()).tools.map((x) => x.name), golden);
          await assert.rejects(bare.callTool({ name: "app_screen", arguments: { session_id: "shell-1" } }), /terminal app's own tools/);
        } finally { await bare.close(); }
      });

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ttywright-apps-vim-"));
      fs.writeFileSync(path.join(dir, "notes.txt"), "teh quick brown fox\njumps over the lazy dog\n");
      await t.test("vim: the app shows what shell_read reads after each of 10 steps", async () => {
        const st = await h.ok("shell_start", { command: "vim", args: ["-u", "NONE", "-N", "notes.txt"], cwd: dir, cols: 80, rows: 20, env: { HOME: dir } }, true);
        const app = await h.app(0);
        await matches(h, app, st.shell_session_id, performance.now(), "vim's first screen");
        const steps = [{ input: "l" }, { input: "x" }, { input: "p" }, { input: "A, said the fox" }, { keys: ["Escape"] },
          { input: "o" }, { input: "a line of its own 日本" }, { keys: ["Escape"] }, { input: ":%s/lazy/sleepy/\r" }, { input: ":w\r" }];
        for (const [i, step] of steps.entries()) {
          await h.ok("shell_send", { session_id: st.shell_session_id, ...step, wait_stable_ms: 50 });
          const at = performance.now();
          latencies.push(await matches(h, app, st.shell_session_id, at, "vim step " + (i + 1)));
        }
        assert.match(fs.readFileSync(path.join(dir, "notes.txt"), "utf8"), /^the quick brown fox, said the fox\na line of its own 日本\njumps over the sleepy dog\n$/);
        await h.ok("shell_stop", { session_id: st.shell_session_id });
      });

      await t.test("htop: the app shows what shell_read reads after each of 10 steps", async () => {
        const st = await h.ok("shell_start", { command: "htop", args: ["-d", "100"], cols: 100, rows: 24, env: { HOME: dir } }, true);
        const app = await h.app(1);
        await h.ok("shell_wait", { session_id: st.shell_session_id, wait_for: "F10", timeout_ms: WAIT_MS });
        await matches(h, app, st.shell_session_id, performance.now(), "htop's first screen");
        const steps = [["Down"], ["Down"], ["Up"], ["t"], ["t"], ["H"], ["H"], ["F2"], ["Escape"], ["End"]];
        for (const [i, keys] of steps.entries()) {
          await h.ok("shell_send", { session_id: st.shell_session_id, keys, wait_stable_ms: 100 });
          const at = performance.now();
          latencies.push(await matches(h, app, st.shell_session_id, at, "htop step " + (i + 1)));
        }
        await h.ok("shell_stop", { session_id: st.shell_session_id });
      });
      console.log(`${tag}: the app showed the screen ${median(latencies).toFixed(1)} ms (median of ${latencies.filter((x) => x !== null).length}) after shell_send returned; all: ${latencies.map((x) => x === null ? "-" : x.toFixed(0)).join(" ")}`);

      const secret = "app-" + Math.random().toString(36).slice(2, 12) + "-S3cr3t";
      await t.test("Take, ls and Enter, Give back; a secret typed in the app", async () => {
        const st = await h.ok("shell_start", { command: "/bin/bash", args: ["--norc", "--noprofile", "-i"], cols: 96, rows: 14, cwd: dir, env: { PS1: "tw$ ", HISTFILE: "/dev/null", HOME: dir } }, true);
        const id = st.shell_session_id;
        const app = await h.app(2);
        await app.waitForSelector("#take:not([disabled])");
        const told = (await h.page.evaluate(() => window.host.modelContext.length));
        await app.click("#take");
        await app.waitForSelector("body.holding");
        const refused = await h.call("shell_send", { session_id: id, text: "echo agent\n" });
        assert.ok(refused.isError && /terminal app/.test(refused.content[0].text), JSON.stringify(refused.content));
        await h.page.keyboard.type("ls");
        await h.page.keyboard.press("Enter");
        const w = await h.ok("shell_wait", { session_id: id, wait_for: "notes.txt", timeout_ms: WAIT_MS });
        assert.equal(w.person_typed, true);
        await h.ok("shell_wait", { session_id: id, wait_for_command: true, timeout_ms: WAIT_MS });
        await app.click("#take");
        await app.waitForFunction(() => !document.body.classList.contains("holding"));
        await h.page.waitForFunction((n) => window.host.modelContext.length > n, told);
        const ctx = await h.page.evaluate(() => window.host.modelContext.at(-1).content[0].text);
        assert.match(ctx, new RegExp("ran `ls` \\(exit 0\\)"));
        const cmds = JSON.parse((await h.page.evaluate((u) => window.host.client.readResource({ uri: u }), `session://${id}/commands`)).contents[0].text);
        assert.equal(cmds.at(-1).line, "ls");
        assert.equal(cmds.at(-1).by, "person");
        await app.waitForFunction(() => [...document.querySelectorAll("#blocks summary code")].some((c) => c.textContent === "ls"));

        const rev = [...secret].reverse().join("");
        await h.ok("shell_send", { session_id: id, text: `read -rs -p "Passphrase: " P; echo; echo "rev=$(rev <<<"$P")"\n`, wait_for_input: true, timeout_ms: WAIT_MS });
        await app.waitForSelector("#secret:not([hidden])");
        assert.match(await app.textContent("#prompt"), /Passphrase:/);
        if (shots) await h.page.screenshot({ path: path.join(shots, `app-secret-${tag}.png`) });
        await app.fill("#password", secret);
        await app.click('#secret button[type="submit"]');
        const r = await h.ok("shell_wait", { session_id: id, wait_for: "rev=" + rev, timeout_ms: WAIT_MS });
        assert.ok(r.matched);
        await h.page.waitForFunction(() => /typed a secret into bash/.test(window.host.modelContext.at(-1)?.content[0].text || ""));
        await app.waitForSelector("#secret", { state: "hidden" });
        const got = await srv.received();
        assert.ok(got.length > 20, "the client received " + got.length + " messages");
        for (const m of got) assert.ok(!m.includes(secret), "the client received the secret: " + m.slice(0, 200));
        const ctxs = JSON.stringify(await h.page.evaluate(() => window.host.modelContext));
        assert.ok(!ctxs.includes(secret) && !ctxs.includes("Passphrase"), "the model context: " + ctxs);
        // The app's document fetches nothing: the policy refuses a connection.
        const probe = await app.evaluate(() => new Promise((done) => {
          document.addEventListener("securitypolicyviolation", (e) => done("blocked by " + e.effectiveDirective), { once: true });
          fetch("http://127.0.0.1:9/probe").catch(() => {});
          setTimeout(() => done("no violation"), 5000);
        }));
        assert.equal(probe, "blocked by connect-src");
        await h.ok("shell_send", { session_id: id, text: "clear; ls --color=always; printf '\\033[1;32m✓ 12 passed\\033[0m  \\033[1;31m✗ 1 failed\\033[0m  \\033[7m tests/notes_test \\033[0m\\n'; false\n", wait_for_command: true });
      });

      await t.test("light and dark, inline and fullscreen", { skip: renderer !== "bridge" && "AppRenderer answers display modes with the host context's" }, async () => {
        const app = await h.app(2);
        const card = (await h.page.$$(".card"))[2];
        await card.scrollIntoViewIfNeeded();
        await app.waitForFunction(() => document.querySelectorAll("#blocks details").length === 3, null, { polling: 50 });
        await app.click("#blocks details:first-child summary");
        await app.waitForSelector("#note:empty", { state: "attached" });
        const bg = () => app.evaluate(() => getComputedStyle(document.getElementById("screen")).backgroundColor);
        const dark = await bg();
        if (shots) await card.screenshot({ path: path.join(shots, `app-dark-${tag}.png`) });
        await app.click("#full");
        await h.page.waitForFunction(() => document.querySelectorAll('.card[data-mode="fullscreen"]').length === 1);
        await app.waitForSelector("#inline:not([hidden])");
        if (shots) await h.page.screenshot({ path: path.join(shots, `app-dark-fullscreen-${tag}.png`) });
        await h.page.evaluate(() => window.host.setTheme("light"));
        await app.waitForFunction((d) => getComputedStyle(document.getElementById("screen")).backgroundColor !== d, dark);
        assert.equal(await app.evaluate(() => document.documentElement.dataset.theme), "light");
        if (shots) await h.page.screenshot({ path: path.join(shots, `app-light-fullscreen-${tag}.png`) });
        await app.click("#inline");
        await h.page.waitForFunction(() => !document.querySelector('.card[data-mode="fullscreen"]'));
        await card.scrollIntoViewIfNeeded();
        if (shots) await card.screenshot({ path: path.join(shots, `app-light-${tag}.png`) });
        await app.click("#pip");
        await h.page.waitForFunction(() => document.querySelectorAll('.card[data-mode="pip"]').length === 1);
        if (shots) await h.page.screenshot({ path: path.join(shots, `app-light-pip-${tag}.png`) });
        await app.click("#inline");
        await h.page.evaluate(() => window.host.setTheme("dark"));
      });

      await t.test("light and dark inline, where the host offers no other mode", { skip: renderer === "bridge" && "the bridge's host offers them" }, async () => {
        const app = await h.app(2);
        const card = (await h.page.$$(".card"))[2];
        assert.deepEqual(await app.evaluate(() => ["full", "pip", "inline"].map((id) => document.getElementById(id).hidden)), [true, true, true]);
        await app.waitForSelector("#note:empty", { state: "attached" });
        await card.scrollIntoViewIfNeeded();
        const dark = await app.evaluate(() => getComputedStyle(document.getElementById("screen")).backgroundColor);
        if (shots) await card.screenshot({ path: path.join(shots, `app-dark-${tag}.png`) });
        await h.page.evaluate(() => window.host.setTheme("light"));
        await app.waitForFunction((d) => getComputedStyle(document.getElementById("screen")).backgroundColor !== d, dark);
        if (shots) await card.screenshot({ path: path.join(shots, `app-light-${tag}.png`) });
        await h.page.evaluate(() => window.host.setTheme("dark"));
      });

      await t.test("a 1000x500 screen", async () => {
        const st = await h.ok("shell_start", { command: "python3", cols: 1000, rows: 500, args: ["-c",
          "import sys,time\nfor r in range(500):\n  sys.stdout.write('\\x1b[%d;1H\\x1b[3%dm' % (r+1, r%8) + ('%03d' % r) * 333 + 'E')\nsys.stdout.write('\\x1b[1;1H')\nsys.stdout.flush()\ntime.sleep(600)"] }, true);
        await h.ok("shell_wait", { session_id: st.shell_session_id, wait_for: "499499499", timeout_ms: WAIT_MS });
        const app = await h.app(3);
        const t0 = performance.now();
        await app.waitForFunction(() => document.querySelectorAll("#screen .row").length === 500 && document.querySelectorAll("#screen .row")[499].textContent.startsWith("499499"), null, { timeout: 60000, polling: 50 });
        const last = await app.evaluate(() => document.querySelectorAll("#screen .row")[499].textContent.replace(/\s+$/, ""));
        assert.equal(last, "499".repeat(333) + "E");
        console.log(`${tag}: a 1000x500 screen painted in the app ${(performance.now() - t0).toFixed(0)} ms after it was on the server`);
        await h.ok("shell_stop", { session_id: st.shell_session_id });
      });
    } finally {
      await h.page.close();
      await srv.stop();
    }
  });
}

// view.test.mjs: the live view of a session in a real headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core over the
// DevTools protocol). The page's text must equal the screen's, cells'
// colours the theme's (the frame's styles, the caret at a block cursor),
// a new screen must appear, keys typed after taking the keyboard must
// reach the program as xterm's bytes, and requests from elsewhere must
// be refused.
//
// Where the view comes from is openView alone: by default it runs the
// root package's TestSessionViewServeForBrowser (a real session, python3
// drawing fixed screens in raw mode and logging the bytes it reads, and
// a control server); VIEW_URL and CONTROL_URL point it at a view served
// some other way.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const chromiumFlags = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

// openView returns the view to test: its url, and frame(), next(),
// typed() and close(), which read the screen shown now, show the next
// one, read what reached the program and end the view.
async function openView() {
  if (process.env.VIEW_URL && process.env.CONTROL_URL) {
    return controlled(process.env.VIEW_URL, process.env.CONTROL_URL, async () => {});
  }
  const child = spawn("go", ["test", "-count=1", "-v", "-run", "^TestSessionViewServeForBrowser$", "."], {
    cwd: path.resolve(here, "..", ".."),
    env: { ...process.env, TTYWRIGHT_VIEW_DEMO: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const urls = await new Promise((resolve, reject) => {
    let out = "";
    const found = {};
    const timer = setTimeout(() => reject(new Error("the view server printed no URLs in 4 minutes:\n" + out)), 240_000);
    child.stdout.on("data", (b) => {
      out += b;
      for (const m of out.matchAll(/^(VIEW_URL|CONTROL_URL)=(\S+)$/gm)) found[m[1]] = m[2];
      if (found.VIEW_URL && found.CONTROL_URL) { clearTimeout(timer); resolve(found); }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error("the view server exited (" + code + "):\n" + out)); });
  });
  return controlled(urls.VIEW_URL, urls.CONTROL_URL, async () => { await exited; });
}

// controlled is a view whose control server is at control.
function controlled(url, control, wait) {
  const call = async (method, p) => {
    const r = await fetch(control + p, { method });
    assert.equal(r.status, 200, method + " " + p);
    return r.text();
  };
  return {
    url,
    control,
    frame: async () => JSON.parse(await call("GET", "/frame")),
    next: async () => JSON.parse(await call("POST", "/next")),
    typed: async () => JSON.parse(await call("GET", "/keys")),
    close: async () => { await call("POST", "/quit").catch(() => {}); await wait(); },
  };
}

// cellsOf is row r of a frame (the browser encoding, docs/attach-protocol.md
// "The live view's screen frame") as one {t, s} a column, "" for the right
// half of a wide character, padded with blanks in the blank style.
function cellsOf(f, r) {
  const out = [];
  for (const [s, t] of f.lines[r] || []) for (const x of typeof t === "string" ? [...t] : t) out.push({ t: x, s });
  while (out.length < f.cols) out.push({ t: " ", s: f.blank || 0 });
  return out;
}

// rowTexts is each row of a frame as text, trailing blanks cut.
function rowTexts(f) {
  const rows = [];
  for (let r = 0; r < f.rows; r++) rows.push(cellsOf(f, r).map((c) => c.t).join("").trimEnd());
  return rows;
}

// cellColours is what a cell should show: its style's colours (reverse
// video already applied by the server), and at a block cursor the text
// in the cell's background on the caret.
function cellColours(f, row, col) {
  const st = f.styles[cellsOf(f, row)[col].s];
  const [r, c, shape] = f.cursor;
  if (shape === 1 && r === row && c === col) return { fg: st.bg, bg: f.caret, bold: !!st.bold };
  return { fg: st.fg, bg: st.bg, bold: !!st.bold };
}

// rgb is a #rrggbb colour as getComputedStyle writes it.
function rgb(hex) {
  const n = (i) => parseInt(hex.slice(i, i + 2), 16);
  return "rgb(" + n(1) + ", " + n(3) + ", " + n(5) + ")";
}

// request sends a raw HTTP request, so Host and Origin can be anything.
function request(url, { method = "GET", headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => { res.resume(); res.on("end", () => resolve(res)); });
    req.on("error", reject);
    req.end();
  });
}

// until polls fn until it returns a truthy value.
async function until(what, fn, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let view, context, page, userDataDir;

before(async () => {
  view = await openView();
  userDataDir = await mkdtemp(path.join(os.tmpdir(), "ttywright-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath, headless: true, args: chromiumFlags,
  });
  page = context.pages()[0] || await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") console.log("page console:", m.text()); });
}, { timeout: 300_000 });

after(async () => {
  await context?.close();
  await view?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
});

test("the page shows the screen's text, colours and wide characters", async () => {
  const f = await view.frame();
  await page.goto(view.url);
  await page.waitForFunction((n) => document.querySelectorAll("#screen .row").length === n, f.rows);
  const got = await page.$$eval("#screen .row", (rows) => rows.map((r) => r.textContent.trimEnd()));
  assert.deepEqual(got, rowTexts(f));

  // A cell's text colour is its span's; its background the background
  // box over its middle, else the screen's.
  const cell = (row, col) => page.evaluate(([row, col]) => {
    const screen = document.getElementById("screen"), el = screen.querySelectorAll(".row")[row];
    const span = [...el.querySelectorAll(":scope > span")].filter((s) => Number(s.dataset.c) <= col).pop();
    const box = el.getBoundingClientRect(), spans = [...el.querySelectorAll(":scope > span")];
    const cw = spans.reduce((w, s) => w + s.getBoundingClientRect().width, 0) / Number(screen.dataset.cols);
    const mid = box.left + (col + 0.5) * cw;
    const bg = [...el.querySelectorAll(":scope > i.bg")].find((b) => { const r = b.getBoundingClientRect(); return r.left <= mid && r.right >= mid; });
    const cs = getComputedStyle(span);
    return { fg: cs.color, bg: getComputedStyle(bg || screen).backgroundColor, weight: Number(cs.fontWeight) };
  }, [row, col]);
  // Three cells of three styles (bold red, green on blue, reversed
  // yellow), and the cursor's.
  for (const [row, col] of [[0, 2], [1, 11], [3, 1], [f.cursor[0], f.cursor[1]]]) {
    const want = cellColours(f, row, col), c = await cell(row, col);
    assert.equal(c.fg, rgb(want.fg), "foreground of row " + row + " column " + col);
    assert.equal(c.bg, rgb(want.bg), "background of row " + row + " column " + col);
    assert.equal(c.weight >= 700, want.bold, "bold of row " + row + " column " + col);
  }
  const widths = await page.evaluate(() => {
    const row = document.querySelectorAll("#screen .row")[2];
    const wide = row.querySelector(".w").getBoundingClientRect().width;
    const first = document.querySelectorAll("#screen .row")[0].querySelector(":scope > span");
    const narrow = first.getBoundingClientRect().width / first.textContent.length;
    return { wide, narrow };
  });
  assert.ok(Math.abs(widths.wide - 2 * widths.narrow) < 1, "a wide character takes two cells: " + JSON.stringify(widths));
  const status = await page.textContent("#status");
  assert.match(status, /keyboard: the agent · 1 viewer/);
});

test("a new screen appears", async () => {
  const t0 = performance.now();
  const f = await view.next();
  await page.waitForFunction((want) => document.querySelector("#screen .row").textContent.trimEnd() === want, rowTexts(f)[0]);
  console.log("the new screen appeared " + (performance.now() - t0).toFixed(1) + " ms after it was sent");
  const got = await page.$$eval("#screen .row", (rows) => rows.map((r) => r.textContent.trimEnd()));
  assert.deepEqual(got, rowTexts(f));
});

test("keys typed after taking the keyboard reach the program as xterm's bytes", async () => {
  const before = (await view.typed()).keys;
  await page.keyboard.type("q"); // read-only: nothing is sent
  await page.getByRole("button", { name: "Take the keyboard" }).click();
  await page.getByRole("button", { name: "Give it back" }).waitFor();
  assert.match(await page.textContent("#status"), /keyboard: you/);
  await page.keyboard.type("ls");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Control+c");
  await page.keyboard.press("F5");
  await page.keyboard.press("Alt+b");
  await page.keyboard.press("Shift+Tab");
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData("text/plain", "echo hi\nx");
    document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  const want = before + "ls\r\x1b[A\x03\x1b[15~\x1bb\x1b[Zecho hi\rx";
  await until("the keys", async () => (await view.typed()).keys === want);

  await page.getByRole("button", { name: "Give it back" }).click();
  await page.getByRole("button", { name: "Take the keyboard" }).waitFor();
  await page.keyboard.type("q"); // given back: not sent
  await page.getByRole("button", { name: "Take the keyboard" }).click();
  await page.getByRole("button", { name: "Give it back" }).waitFor();
  await page.keyboard.type("z");
  await until("the key after taking it again", async () => (await view.typed()).keys === want + "z");
});

test("requests with a wrong token, Host or Origin are refused", async () => {
  const u = new URL(view.url);
  const token = u.pathname.split("/").pop();
  const other = u.origin + "/view/" + (token[0] === "A" ? "B" : "A") + token.slice(1);
  assert.equal((await request(other)).statusCode, 404, "wrong token");
  assert.equal((await request(view.url, { headers: { Host: "evil.example" } })).statusCode, 421, "wrong Host");
  assert.equal((await request(view.url, { headers: { Host: "localhost:" + u.port } })).statusCode, 421, "localhost Host");
  assert.equal((await request(view.url + "/take", { method: "POST", headers: { Origin: "http://evil.example" } })).statusCode, 403, "cross-origin POST");

  // From a page of another origin, Chromium itself: a simple POST gets
  // through to be refused, the event stream is not readable.
  const calls = (await view.typed()).calls.length;
  const evil = await context.newPage();
  await evil.goto(view.control + "/frame");
  const result = await evil.evaluate(async (target) => {
    await fetch(target + "/take", { method: "POST", mode: "no-cors" }).catch(() => {});
    const csrf = await fetch(target + "/take", { method: "POST", headers: { "X-Ttywright-CSRF": "x" } }).then(() => "read", () => "blocked");
    const stream = await new Promise((resolve) => {
      const es = new EventSource(target + "/events");
      es.onopen = () => { es.close(); resolve("open"); };
      es.onerror = () => { es.close(); resolve("error"); };
    });
    return { csrf, stream };
  }, view.url);
  await evil.close();
  assert.deepEqual(result, { csrf: "blocked", stream: "error" });
  assert.equal((await view.typed()).calls.length, calls, "a request from another origin reached the session");
});

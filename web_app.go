package main

// web_app.go: the terminal app's document, ui://ttywright/terminal: one
// self-contained HTML page (inline style and scripts, nothing fetched)
// that an MCP client renders in the conversation, in a sandboxed iframe
// under a policy that allows no connection (mcp_apps.go serves it). It
// speaks the MCP Apps host protocol by hand (JSON-RPC 2.0 over
// postMessage: ui/initialize, then ui/notifications/initialized), learns
// its session from the tool's input or result, and gets everything else
// through the host's tools/call of the app's own tools (tools_app.go):
// the screen by long-poll (app_screen), painted by the one painter
// (html.go) as the live view paints it, the commands as blocks to
// expand (app_commands), the keyboard (app_keyboard, keys turned into
// bytes by webKeysScript) and a secret (app_secret). It follows the
// host's context: light or dark, its style variables, the display mode
// (inline, fullscreen, picture-in-picture) and the size it gets.

import (
	"bytes"
	"html/template"
	"sync"
)

// maxAppDocument bounds the document's bytes: hosts load it in every
// conversation that shows a terminal.
const maxAppDocument = 48 << 10

// appDocument is the document, made once.
var appDocument = sync.OnceValue(func() string {
	var b bytes.Buffer
	if err := appTemplate.Execute(&b, appPageData{Style: template.CSS(appStyle), Keys: template.JS(webKeysScript()), Script: template.JS(appScript)}); err != nil {
		panic("web_app.go: the app's template: " + err.Error()) // constants only: a bug, caught by every test that reads it
	}
	return b.String()
})

// appPageData is what the app's template holds: its own constants.
type appPageData struct {
	Style        template.CSS
	Keys, Script template.JS
}

// appTemplate is the app's document: a header with the session, the
// keyboard's state and the buttons, the secret's field, the screen and
// the command blocks.
var appTemplate = template.Must(template.New("app").Funcs(htmlPageFuncs).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Terminal · ttywright</title>
<style>{{screenStyle}}{{.Style}}</style>
</head>
<body>
<header>
<b id="title">ttywright</b>
<span id="state" role="status">connecting…</span>
<span class="buttons">
<button id="take" type="button" disabled>Take control</button>
<button id="full" type="button" hidden>Fullscreen</button>
<button id="pip" type="button" hidden>Keep in view</button>
<button id="inline" type="button" hidden>Back inline</button>
</span>
</header>
<p id="note" role="alert"></p>
<form id="secret" hidden autocomplete="off">
<label for="password" id="prompt">The program asks for a secret</label>
<input id="password" type="password" autocomplete="off" required>
<button type="submit">Type it into the program</button>
<small>It goes to the program only: the AI never sees it.</small>
</form>
<div id="wrap"><pre id="screen" tabindex="0" aria-label="The terminal's screen"></pre></div>
<textarea id="ime" aria-label="Keyboard input for the terminal" autocomplete="off" autocapitalize="off" spellcheck="false"></textarea>
<section id="commands" aria-label="Commands" hidden><h2>Commands</h2><div id="blocks"></div></section>
<script>{{screenScript}}</script>
<script>{{.Keys}}</script>
<script>{{.Script}}</script>
</body>
</html>
`))

// appStyle is the app's style sheet, after the painter's (htmlScreenCSS):
// the host's style variables (the extension's names) with fallbacks, in
// the host's light or dark scheme. The screen's colours come from each
// frame.
const appStyle = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,light-dark(#fff,#1e1f22));--bg2:var(--color-background-secondary,light-dark(#f3f4f6,#2b2d31));--fg:var(--color-text-primary,light-dark(#1f2328,#e6e6e6));--fg2:var(--color-text-secondary,light-dark(#59636e,#a0a4ab));--line:var(--color-border-primary,light-dark(#d1d9e0,#3d4048));--ok:var(--color-text-success,light-dark(#1a7f37,#57c26b));--bad:var(--color-text-danger,light-dark(#cf222e,#f47067));--warn:var(--color-text-warning,light-dark(#9a6700,#e5a00d));--r:var(--border-radius-md,6px)}
:root[data-theme=light]{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}
body{margin:0;background:var(--bg);color:var(--fg);font:13px/1.4 var(--font-sans,system-ui,sans-serif)}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem .7rem;padding:.4rem .6rem;background:var(--bg2);border-bottom:1px solid var(--line)}
#title{font-weight:600;overflow-wrap:anywhere}
#state{flex:1;color:var(--fg2)}
.buttons{display:flex;gap:.4rem}
button{font:inherit;padding:.2rem .7rem;border:1px solid var(--line);border-radius:var(--r);background:var(--bg);color:var(--fg);cursor:pointer}
button:disabled{opacity:.5;cursor:default}
body.holding #take{border-color:var(--warn);color:var(--warn)}
#note{margin:0;padding:0 .6rem;color:var(--warn)}#note:empty{display:none}
#secret{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem;margin:.4rem .6rem;padding:.4rem .6rem;border:1px solid var(--warn);border-radius:var(--r)}
#secret[hidden]{display:none}#secret small{color:var(--fg2)}
#password{font:inherit;padding:.2rem .4rem;min-width:12rem}
#wrap{overflow:auto;padding:.4rem .6rem}
#screen{margin:0;padding:4px;border:2px solid transparent;border-radius:2px;outline:none;font-size:13px;font-family:var(--font-mono,"DejaVu Sans Mono"),ui-monospace,Menlo,Consolas,monospace}
body.holding #screen{border-color:var(--warn)}
#ime{position:fixed;left:0;top:0;width:1px;height:1px;opacity:0;border:0;padding:0;resize:none;overflow:hidden}
#commands{padding:0 .6rem .5rem}#commands h2{font-size:.85rem;margin:.2rem 0;color:var(--fg2);font-weight:600}
details{border-top:1px solid var(--line)}summary{cursor:pointer;padding:.15rem 0;display:flex;gap:.6rem;align-items:baseline}
summary code{flex:1;font-family:var(--font-mono,ui-monospace,monospace);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
summary .ok{color:var(--ok)}summary .bad{color:var(--bad)}summary small{color:var(--fg2)}
details pre{margin:0 0 .4rem;padding:.4rem;max-height:16rem;overflow:auto;background:var(--bg2);border-radius:var(--r);font-size:12px;white-space:pre-wrap}
html.fixed,html.fixed body{height:100%}html.fixed body{display:flex;flex-direction:column}html.fixed #wrap{flex:1;min-height:0}
html.pip #commands{display:none}
`

// appScript is the app's script, after the painter's (htmlPainter) and
// the keys' (webKeysScript).
const appScript = `"use strict";
(function () {
  function $(id) { return document.getElementById(id); }
  var screen = $("screen"), wrap = $("wrap"), note = $("note"), take = $("take"), stateEl = $("state"), titleEl = $("title");
  var form = $("secret"), password = $("password"), promptEl = $("prompt"), blocks = $("blocks"), ime = $("ime");
  var modeButtons = {fullscreen: $("full"), pip: $("pip"), inline: $("inline")};
  var host = {}, hostCaps = {}, session = "", viewer = "", since = "", polls = 0, retry = 1000, frame = null, last = {};
  var holding = false, ended = false, commandsSeen = -1, appCursor = false, bracketed = false, told = [], opened = {};

  function say(msg) { note.textContent = msg || ""; }
  function flash(msg) { say(msg); setTimeout(function () { if (note.textContent === msg) say(""); }, 4000); }
  function errText(e) { return e && e.message ? e.message : String(e); }

  // The host protocol: JSON-RPC 2.0 over postMessage with the parent,
  // the host or its sandbox proxy.
  var nextID = 1, pending = {};
  function post(msg) { window.parent.postMessage(msg, "*"); }
  function request(method, params) {
    var id = nextID++;
    post({jsonrpc: "2.0", id: id, method: method, params: params || {}});
    return new Promise(function (resolve, reject) { pending[id] = {resolve: resolve, reject: reject}; });
  }
  function notify(method, params) { post({jsonrpc: "2.0", method: method, params: params || {}}); }
  var handlers = {
    "ui/notifications/tool-input": function (p) { var a = p.arguments || {}; if (typeof a.session_id === "string") follow(a.session_id); },
    "ui/notifications/tool-result": function (p) { var r = p.structuredContent || {}; if (typeof r.shell_session_id === "string") follow(r.shell_session_id); },
    "ui/notifications/host-context-changed": function (p) { var theme = host.theme; Object.assign(host, p); applyHost(theme !== host.theme); },
    "ui/resource-teardown": function () { return holding ? keyboard("give") : {}; },
    "ping": function () { return {}; }
  };
  window.addEventListener("message", function (e) {
    var m = e.data;
    if (e.source !== window.parent || !m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) {
      var p = pending[m.id];
      delete pending[m.id];
      if (p && m.error) p.reject(new Error(m.error.message || "error " + m.error.code));
      else if (p) p.resolve(m.result || {});
      return;
    }
    var h = handlers[m.method];
    if (m.id === undefined) { if (h) h(m.params || {}); return; }
    Promise.resolve(h ? h(m.params || {}) : null).then(function (r) {
      post(h ? {jsonrpc: "2.0", id: m.id, result: {}} : {jsonrpc: "2.0", id: m.id, error: {code: -32601, message: "Method not found: " + m.method}});
    });
  });

  // call calls one of the app's tools through the host: its
  // structuredContent, or an error with the tool's text.
  function call(name, args) {
    args.session_id = session;
    if (viewer) args.viewer = viewer;
    return request("tools/call", {name: name, arguments: args}).then(function (r) {
      var text = (r.content || []).map(function (c) { return c.text || ""; }).join("\n");
      if (r.isError) throw new Error(text || name + " failed");
      if (r.structuredContent) return r.structuredContent;
      var blocks = r.content || [];
      return JSON.parse(blocks[blocks.length - 1].text);
    });
  }

  // follow shows session id: the screen, polled until the program ends.
  function follow(id) {
    if (!id || id === session) return;
    session = id; viewer = ""; since = ""; commandsSeen = -1; ended = false; holding = false;
    poll();
  }

  // poll asks for the next screen; a newer poll makes an older one's
  // answer moot (the server ends the older one at once).
  function poll() {
    var n = ++polls;
    var args = {};
    if (since) args.since = since;
    if (host.theme === "light" || host.theme === "dark") args.host_theme = host.theme;
    call("app_screen", args).then(function (r) {
      if (n !== polls) return;
      viewer = r.viewer; since = r.next;
      if (r.frame) render(r.frame);
      status(r);
      if (r.commands !== commandsSeen) { commandsSeen = r.commands; commands(); }
      if (retry > 1000) say("");
      retry = 1000;
      if (!ended) poll();
    }, function (e) {
      if (n !== polls) return;
      say(errText(e));
      retry = Math.min(2 * retry, 30000);
      setTimeout(function () { if (n === polls && !ended) { viewer = ""; poll(); } }, retry);
    });
  }

  function render(f) {
    frame = f;
    if (f.modes) { appCursor = !!f.modes.app_cursor; bracketed = !!f.modes.bracketed_paste; }
    fitFont();
    ttyScreen.paint(screen, f, f.styles, {caret: f.caret});
  }

  // fitFont sizes the screen's font so that its columns fit the width
  // (and in fullscreen or picture-in-picture its rows the height too),
  // between 5 and 15 pixels (24 there); a screen too big for that scrolls.
  var perPixel = 0;
  function fitFont() {
    if (!frame) return;
    if (!perPixel) { screen.style.fontSize = "100px"; perPixel = ttyScreen.cellWidth(screen) / 100 || 0.6; }
    var w = (wrap.clientWidth - 32) / (frame.cols * perPixel), size = w, most = 15;
    if (host.displayMode === "fullscreen" || host.displayMode === "pip") { size = Math.min(w, (wrap.clientHeight - 32) / (frame.rows * 1.25)); most = 24; }
    screen.style.fontSize = Math.max(5, Math.min(most, Math.floor(size * 2) / 2)) + "px";
  }

  function status(r) {
    var st = r.status || {};
    last = r;
    holding = !!st.you;
    titleEl.textContent = (frame && frame.title) || r.title || session;
    var who = holding ? "you have control" : st.keyboard === "person" ? "a person has control" : "the agent has control";
    var parts = [session, who];
    if (typeof st.exit_code === "number") { ended = true; parts.push(st.signal ? "ended by " + st.signal : "exited with code " + st.exit_code); }
    else if (r.foreground) parts.push(r.foreground.command + " " + ({command: "waits for a command", secret: "waits for a secret", line: "waits for a line", keys: "reads keys"}[r.foreground.input] || "is busy"));
    stateEl.textContent = parts.join(" · ");
    take.textContent = holding ? "Give back control" : "Take control";
    take.disabled = ended || !viewer || (!holding && st.keyboard === "person");
    document.body.classList.toggle("holding", holding);
    var asks = !ended && r.foreground && r.foreground.input === "secret";
    if (asks && form.hidden) { promptEl.textContent = (r.prompt || "The program asks for a secret") + " "; form.hidden = false; }
    if (!asks) form.hidden = true;
  }

  // commands draws the command blocks, newest first, each opened or
  // closed as the person left it.
  function commands() {
    call("app_commands", {}).then(function (r) {
      var list = (r.commands || []).slice().reverse();
      if (r.running) list.unshift(r.running);
      blocks.replaceChildren.apply(blocks, list.map(block));
      $("commands").hidden = !list.length;
    }, function (e) { say(errText(e)); });
  }
  function block(c) {
    var d = document.createElement("details"), s = document.createElement("summary"), line = document.createElement("code");
    var exit = document.createElement("span"), time = document.createElement("small"), out = document.createElement("pre");
    line.textContent = c.line;
    exit.textContent = c.running ? "running" : "exit " + (c.exit_code === undefined ? "?" : c.exit_code);
    exit.className = c.running ? "" : c.exit_code === 0 ? "ok" : "bad";
    time.textContent = (typeof c.duration_ms === "number" ? (c.duration_ms / 1000).toFixed(c.duration_ms < 10000 ? 1 : 0) + " s" : "") + (c.by === "person" ? " · by a person" : "");
    out.textContent = c.output || "(no output)";
    s.append(line, exit, time);
    d.append(s, out);
    var key = c.running ? "running" : String(c.n);
    d.open = !!opened[key];
    d.addEventListener("toggle", function () { opened[key] = d.open; });
    return d;
  }

  // tell puts what the person did in the model's context: the newest
  // few lines, since each update replaces the one before.
  function tell(line) {
    if (!line || !hostCaps.updateModelContext) return;
    told = told.concat(line).slice(-3);
    request("ui/update-model-context", {content: [{type: "text", text: told.join("\n")}]}).catch(function () {});
  }

  function keyboard(action) {
    return call("app_keyboard", {action: action}).then(function (r) {
      status(Object.assign({}, last, {status: r.status}));
      tell(r.account);
      if (holding) ime.focus();
      return {};
    }, function (e) { say(errText(e)); return {}; });
  }
  take.addEventListener("click", function () { say(""); keyboard(holding ? "give" : "take"); });

  // The person's keys go in order, one call at a time.
  var queue = "", sending = false;
  function pump() {
    if (sending || !queue || !holding) return;
    var chunk = queue.slice(0, 16384); // at most 48 KiB of UTF-8
    if (chunk.length < queue.length && /[\ud800-\udbff]$/.test(chunk)) chunk = chunk.slice(0, -1);
    queue = queue.slice(chunk.length);
    sending = true;
    call("app_keyboard", {action: "keys", keys: chunk}).catch(function (e) { queue = ""; say(errText(e)); })
      .then(function () { sending = false; pump(); });
  }
  ttyKeys.listen({ime: ime, screen: screen, send: function (s) { queue += s; pump(); },
    holding: function () { return holding; },
    modes: function () { return {appCursor: appCursor, bracketed: bracketed}; }});

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var secret = password.value;
    password.value = "";
    call("app_secret", {secret: secret}).then(function (r) { flash("Typed into the program."); form.hidden = true; tell(r.account); },
      function (err) { say(errText(err)); });
  });

  function mode(m) {
    request("ui/request-display-mode", {mode: m}).then(function (r) { host.displayMode = r.mode || host.displayMode; applyHost(false); }, function (e) { say(errText(e)); });
  }
  Object.keys(modeButtons).forEach(function (m) { modeButtons[m].addEventListener("click", function () { mode(m); }); });

  // applyHost follows the host's context: theme, style variables,
  // display mode and size; a new theme repaints the screen in it.
  function applyHost(newTheme) {
    var root = document.documentElement, vars = (host.styles && host.styles.variables) || {};
    if (host.theme) root.dataset.theme = host.theme;
    Object.keys(vars).forEach(function (k) { if (/^--[a-z0-9-]+$/.test(k) && typeof vars[k] === "string") root.style.setProperty(k, vars[k]); });
    var dims = host.containerDimensions || {}, modes = host.availableDisplayModes || [], now = host.displayMode || "inline";
    root.classList.toggle("fixed", "height" in dims || now !== "inline");
    root.classList.toggle("pip", now === "pip");
    Object.keys(modeButtons).forEach(function (m) { modeButtons[m].hidden = m === now || modes.indexOf(m) < 0; });
    fitFont();
    if (newTheme && session && !ended) { since = ""; poll(); }
  }

  // The size the content takes, for a host that sizes the frame to it.
  var reported = 0;
  new ResizeObserver(function () {
    var h = Math.ceil(document.body.getBoundingClientRect().height);
    if (h !== reported) { reported = h; notify("ui/notifications/size-changed", {height: h}); }
  }).observe(document.body);
  new ResizeObserver(function () { if (frame) render(frame); }).observe(wrap);

  request("ui/initialize", {protocolVersion: "2026-01-26", appInfo: {name: "ttywright-terminal", version: "1"},
    appCapabilities: {availableDisplayModes: ["inline", "fullscreen", "pip"]}}).then(function (r) {
    host = r.hostContext || {};
    hostCaps = r.hostCapabilities || {};
    applyHost(false);
    notify("ui/notifications/initialized");
    stateEl.textContent = "waiting for a session…";
  }, function (e) { say("The host refused the app: " + errText(e)); });
})();
`

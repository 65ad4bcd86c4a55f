package main

// trace_html.go: the HTML trace of a session, one self-contained file
// (html/template; inline CSS and a small inline script; no network, no
// framework; a Content-Security-Policy of default-src 'none' keeps the
// page from loading anything, so it opens from file:// as it is): a
// timeline of the steps, the screen after each one drawn as styled text
// that can be selected and searched, a before/after toggle that marks
// the cells a step changed, the step's arguments, reply and command
// blocks, the commands list with exit codes, and a film strip of small
// text thumbnails, one a step.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"unicode/utf8"
)

// traceDoc is the data the page's script draws from.
type traceDoc struct {
	Meta    traceMeta         `json:"meta"`
	Theme   [3]string         `json:"theme"` // background, foreground, cursor as #rrggbb
	Steps   []traceStepJSON   `json:"steps"`
	Screens []traceScreen     `json:"screens"`
	Rows    []json.RawMessage `json:"rows"`
	Styles  []htmlStyle       `json:"styles"`
	Dropped int               `json:"dropped,omitempty"`
	Cut     int               `json:"cut,omitempty"`    // screens not kept past maxTraceBytes
	EndMS   int64             `json:"end_ms,omitempty"` // when the session was stopped, ms after it started
}

// traceStepJSON is a step as the page shows it: times in milliseconds
// from the session's start.
type traceStepJSON struct {
	traceStep
	AtMS  int64   `json:"at_ms"`
	DurMS float64 `json:"dur_ms"`
}

// HTML returns the trace as one HTML page (WriteHTML).
func (t *sessionTrace) HTML() ([]byte, error) {
	var b bytes.Buffer
	err := t.WriteHTML(&b)
	return b.Bytes(), err
}

// traceDocSlot stands for the page's data in the template's output, where
// WriteHTML writes it piece by piece.
const traceDocSlot = "/*ttywright trace data*/"

// WriteHTML writes the trace as one HTML page to w: the template around
// the data, and the data (traceDoc, JSON with <, > and & escaped, so no
// text in it can end the script) a step, a screen and a row at a time,
// so that writing a large trace does not first build it in memory.
func (t *sessionTrace) WriteHTML(w io.Writer) error {
	doc := t.doc()
	var page bytes.Buffer
	err := traceTemplate.Execute(&page, struct {
		Title string
		Doc   template.JS
	}{fmt.Sprintf("ttywright trace: %s (%s)", doc.Meta.ID, doc.Meta.Command), traceDocSlot})
	if err != nil {
		return err
	}
	head, tail, ok := bytes.Cut(page.Bytes(), []byte(traceDocSlot))
	if !ok {
		return errors.New("trace: the page template has no place for the data")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head)
	if err := doc.writeJSON(bw); err != nil {
		return err
	}
	bw.Write(tail)
	return bw.Flush()
}

// writeJSON writes d as JSON, each part through json.Marshal (which
// escapes <, > and &) and each stored row through json.HTMLEscape.
func (d traceDoc) writeJSON(w *bufio.Writer) error {
	var err error
	put := func(key string, v any) {
		if err != nil {
			return
		}
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			w.WriteString(key)
			w.Write(b)
		}
	}
	list := func(key string, n int, item func(i int)) {
		w.WriteString(key + "[")
		for i := range n {
			if i > 0 {
				w.WriteByte(',')
			}
			item(i)
		}
		w.WriteByte(']')
	}
	put(`{"meta":`, d.Meta)
	put(`,"theme":`, d.Theme)
	list(`,"steps":`, len(d.Steps), func(i int) { put("", d.Steps[i]) })
	list(`,"screens":`, len(d.Screens), func(i int) { put("", d.Screens[i]) })
	var row bytes.Buffer
	list(`,"rows":`, len(d.Rows), func(i int) {
		row.Reset()
		json.HTMLEscape(&row, d.Rows[i])
		w.Write(row.Bytes())
	})
	put(`,"styles":`, d.Styles)
	put(`,"dropped":`, d.Dropped)
	put(`,"cut":`, d.Cut)
	put(`,"end_ms":`, d.EndMS)
	w.WriteByte('}')
	return err
}

// doc copies what the page needs, under t's lock.
func (t *sessionTrace) doc() traceDoc {
	t.mu.Lock()
	defer t.mu.Unlock()
	th := t.meta.Theme
	if th == nil {
		th = themeList[0]
	}
	d := traceDoc{Meta: t.meta, Theme: [3]string{hexColor(th.Background), hexColor(th.Foreground), hexColor(th.Cursor)},
		Screens: t.screens, Rows: t.rows, Styles: t.styles, Dropped: t.dropped, Cut: t.cut}
	if d.Screens == nil {
		d.Screens = []traceScreen{}
	}
	if d.Rows == nil {
		d.Rows = []json.RawMessage{}
	}
	if !t.stoppedAt.IsZero() {
		d.EndMS = t.stoppedAt.Sub(t.meta.Started).Milliseconds()
	}
	d.Steps = make([]traceStepJSON, len(t.steps))
	for i, s := range t.steps {
		d.Steps[i] = traceStepJSON{traceStep: s, AtMS: s.Start.Sub(t.meta.Started).Milliseconds(),
			DurMS: float64(s.Duration.Microseconds()) / 1000}
	}
	return d
}

// clipRunes cuts s to n characters, with an ellipsis when it was longer.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// traceTemplate is the page. Its data is written once, as JSON, into the
// script (html/template escapes it for a script), and the script draws
// the rest.
var traceTemplate = template.Must(template.New("trace").Funcs(htmlPageFuncs).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{margin:0;font:13px/1.4 system-ui,sans-serif;background:#f4f4f5;color:#18181b;display:grid;grid-template-columns:300px 1fr;grid-template-rows:auto 1fr auto;height:100vh}
header{grid-column:1/3;padding:6px 12px;background:#18181b;color:#fafafa;display:flex;gap:16px;align-items:baseline}
header h1{font-size:15px;margin:0}header span{color:#a1a1aa}
#steps{overflow:auto;margin:0;padding:0;list-style:none;border-right:1px solid #d4d4d8;background:#fff}
#steps li{padding:4px 8px;border-bottom:1px solid #f4f4f5;cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#steps li.sel{background:#dbeafe}#steps li.err .tool{color:#dc2626}
#steps .n{color:#71717a;display:inline-block;width:3em}#steps .tool{font-weight:600}#steps .sum{color:#52525b}#steps .dur{float:right;color:#a1a1aa}
main{overflow:auto;padding:10px 14px}
.bar{display:flex;gap:10px;align-items:center;margin-bottom:8px;flex-wrap:wrap}
.bar button{font:inherit;padding:2px 10px;border:1px solid #a1a1aa;background:#fff;border-radius:4px;cursor:pointer}
.bar button.on{background:#2563eb;color:#fff;border-color:#2563eb}
#screen{font-size:14px;padding:6px;display:inline-block;min-width:40ch;border-radius:4px}
#screen .chg{outline:1px solid #f59e0b;box-shadow:inset 0 0 0 100em rgba(245,158,11,.35)}
h2{font-size:13px;margin:12px 0 4px}
pre.json{background:#fff;border:1px solid #e4e4e7;padding:6px;white-space:pre-wrap;word-break:break-all;max-height:14em;overflow:auto;margin:0}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #e4e4e7;padding:2px 8px;text-align:left;font-size:12px}
tr.fail td.exit{color:#dc2626;font-weight:600}tbody tr{cursor:pointer}
#strip{grid-column:1/3;display:flex;gap:6px;overflow-x:auto;padding:6px;background:#27272a}
.thumb{flex:none;cursor:pointer;border:2px solid transparent;border-radius:3px;font:2px/2px monospace;white-space:pre;overflow:hidden;width:120px;height:64px;position:relative}
.thumb.sel{border-color:#60a5fa}.thumb b{position:absolute;right:2px;bottom:1px;font:9px/1 system-ui;color:#fff;background:#0008;padding:1px 3px}
{{screenStyle}}
</style></head>
<body>
<header><h1 id="title"></h1><span id="meta"></span></header>
<ol id="steps"></ol>
<main>
<div class="bar"><button id="after" class="on">After</button><button id="before">Before</button>
<label><input type="checkbox" id="mark" checked> mark changed cells</label>
<input id="find" type="search" placeholder="find in screens (Enter)"><span id="found"></span></div>
<div id="screen"></div>
<h2>Step <span id="stepn"></span></h2>
<div id="shots"></div>
<h2>Arguments</h2><pre class="json" id="args"></pre>
<h2>Reply</h2><pre class="json" id="reply"></pre>
<div id="cmdout"></div>
<h2>Commands</h2><table><thead><tr><th>#</th><th>line</th><th>exit</th><th>ms</th><th>step</th></tr></thead><tbody id="cmds"></tbody></table>
</main>
<div id="strip"></div>
<script>{{screenScript}}</script>
<script>
"use strict";
const D = {{.Doc}};
const $ = id => document.getElementById(id);
let cur = 0, showBefore = false;
const rowCells = (sc, r) => ttyScreen.cells(D.rows[sc.lines[r]]);
const screenText = i => {
  if (i < 0) return "";
  const sc = D.screens[i];
  return sc.lines.map((_, r) => rowCells(sc, r).map(c => c.t).join("").replace(/ +$/, "")).join("\n").replace(/\n+$/, "");
};
function screenBefore(i) { for (let j = i - 1; j >= 0; j--) if (D.steps[j].screen >= 0) return D.steps[j].screen; return -1; }
// draw paints screen si into el; with mark, the cells that differ from
// screen oi's get the class chg.
function draw(el, si, oi, mark) {
  if (si < 0) { el.textContent = "(no screen)"; return; }
  const sc = D.screens[si], ot = oi >= 0 ? D.screens[oi] : null;
  const changed = mark && ot ? sc.lines.map((rid, r) => ot.lines[r] === rid ? null : [rowCells(sc, r), r < ot.lines.length ? rowCells(ot, r) : []]) : [];
  const differs = (r, c) => {
    const rc = changed[r];
    if (!rc) return "";
    const a = rc[0][c] || {t: " ", s: sc.blank | 0}, b = rc[1][c] || {t: " ", s: ot.blank | 0};
    return a.t !== b.t || a.s !== b.s ? "chg" : "";
  };
  ttyScreen.paint(el, sc, D.styles, {rows: D.rows, caret: D.theme[2], mark: differs});
}
function select(i) {
  if (i < 0 || i >= D.steps.length) return;
  cur = i;
  const st = D.steps[i];
  document.querySelectorAll("#steps li, .thumb").forEach(e => e.classList.toggle("sel", +e.dataset.i === i));
  const li = document.querySelector('#steps li[data-i="' + i + '"]'); if (li) li.scrollIntoView({block: "nearest"});
  const b = screenBefore(i), mark = $("mark").checked;
  if (showBefore) draw($("screen"), b, st.screen, mark); else draw($("screen"), st.screen, b, mark);
  $("stepn").textContent = "#" + st.n + " " + st.tool + " at " + (st.at_ms / 1000).toFixed(3) + " s, " + st.dur_ms.toFixed(1) + " ms";
  $("args").textContent = JSON.stringify(st.args, null, 1);
  $("reply").textContent = JSON.stringify(st.error ? {isError: true, error: st.error} : st.reply || {}, null, 1) + (st.failed ? "\nFAILED: " + st.failed : "");
  const co = $("cmdout"); co.textContent = "";
  for (const c of st.commands || []) {
    const h = document.createElement("h2"); h.textContent = "Command " + c.n + ": " + c.line + " (exit " + (c.exit_code ?? "?") + ", " + c.duration_ms + " ms)";
    const pre = document.createElement("pre"); pre.className = "json"; pre.textContent = (c.cut ? "…" : "") + c.output;
    co.append(h, pre);
  }
  const sh = $("shots"); sh.textContent = "";
  for (const f of st.shots || []) { const a = document.createElement("a"); a.href = f; a.textContent = "screenshot " + f; sh.append(a, " "); }
}
function init() {
  const m = D.meta;
  $("title").textContent = m.id + ": " + [m.command].concat(m.args || []).join(" ");
  $("meta").textContent = m.cols + "x" + m.rows + " · " + m.started + " · " + D.steps.length + " steps" + (D.dropped ? " (+" + D.dropped + " not kept)" : "") + (D.cut ? " · " + D.cut + " screens not kept (the trace's 64 MiB)" : "");
  const scr = $("screen"); scr.style.background = D.theme[0]; scr.style.color = D.theme[1];
  const ol = $("steps"), strip = $("strip"), cmds = $("cmds");
  D.steps.forEach((st, i) => {
    const li = document.createElement("li"); li.dataset.i = i; li.className = "step" + (st.failed ? " err" : "");
    const add = (cls, t) => { const s = document.createElement("span"); s.className = cls; s.textContent = t; li.append(s, " "); };
    add("n", "#" + st.n); add("tool", st.tool); add("sum", st.origin ? st.origin + " · " + st.sum : st.sum); add("dur", st.dur_ms.toFixed(0) + " ms");
    if (st.failed) li.title = st.failed;
    li.onclick = () => select(i); ol.append(li);
    const th = document.createElement("div"); th.className = "thumb"; th.dataset.i = i;
    th.style.background = D.theme[0]; th.style.color = D.theme[1];
    th.textContent = screenText(st.screen); const b = document.createElement("b"); b.textContent = st.n; th.append(b);
    th.onclick = () => select(i); strip.append(th);
    for (const c of st.commands || []) {
      const tr = document.createElement("tr"); tr.className = c.exit_code ? "fail" : "";
      for (const [cls, v] of [["", c.n], ["", c.line], ["exit", c.exit_code ?? ""], ["", c.duration_ms], ["", "#" + st.n]]) {
        const td = document.createElement("td"); td.className = cls; td.textContent = v; tr.append(td);
      }
      tr.onclick = () => select(i); cmds.append(tr);
    }
  });
  $("after").onclick = () => { showBefore = false; $("after").className = "on"; $("before").className = ""; select(cur); };
  $("before").onclick = () => { showBefore = true; $("before").className = "on"; $("after").className = ""; select(cur); };
  $("mark").onchange = () => select(cur);
  $("find").onkeydown = e => {
    if (e.key !== "Enter" || !e.target.value) return;
    const q = e.target.value.toLowerCase(), n = D.steps.length;
    for (let k = 1; k <= n; k++) {
      const i = (cur + k) % n, st = D.steps[i];
      if (screenText(st.screen).toLowerCase().includes(q) || JSON.stringify(st.args).toLowerCase().includes(q)) { select(i); $("found").textContent = "step #" + st.n; return; }
    }
    $("found").textContent = "not found";
  };
  document.onkeydown = e => { if (e.target.tagName === "INPUT") return; if (e.key === "ArrowDown" || e.key === "j") select(cur + 1); if (e.key === "ArrowUp" || e.key === "k") select(cur - 1); };
  select(0);
}
init();
</script>
</body></html>
`))

package main

// web_keys.go: a person's keys in a browser page, the one script that
// turns them into the bytes xterm sends, for every page that takes a
// session's keyboard: the live view (web_view.go) and the terminal app
// (web_app.go). Each page sends the bytes its own way. The bytes of the
// named keys come from the one key table, xtermKeys (vt_keys.go).

import (
	"encoding/json"
	"strings"
	"sync"
)

// webKeysScript returns the script, webKeysSource with the key tables
// of webKeyTables, built once.
var webKeysScript = sync.OnceValue(func() string {
	return strings.Replace(webKeysSource, "KEY_TABLES", webKeyTables(), 1)
})

// webKeyTables is the JSON object of xtermKeys' keys by the name a
// browser gives them (KeyboardEvent.key: "ArrowUp", "PageDown", "F5"):
// cursor, the final byte of the keys sent as CSI or, in application
// cursor mode, SS3; ss3, that of the keys sent as SS3 unmodified
// (F1-F4); tilde, the n of the keys sent as CSI n ~.
func webKeyTables() string {
	t := struct {
		Cursor map[string]string `json:"cursor"`
		SS3    map[string]string `json:"ss3"`
		Tilde  map[string]int    `json:"tilde"`
	}{map[string]string{}, map[string]string{}, map[string]int{}}
	for _, k := range xtermKeys {
		dom := k.name
		switch dom {
		case "Up", "Down", "Left", "Right":
			dom = "Arrow" + dom
		}
		switch {
		case k.ss3:
			t.SS3[dom] = string(k.final)
		case k.final != 0:
			t.Cursor[dom] = string(k.final)
		case k.tilde != 0:
			t.Tilde[dom] = k.tilde
		}
	}
	b, err := json.Marshal(t)
	if err != nil {
		panic(err) // maps of strings and ints always marshal
	}
	return string(b)
}

// webKeysSource defines ttyKeys, once KEY_TABLES is replaced:
//
//   - ttyKeys.encode(e, appCursor) is the bytes, as a string, xterm sends
//     for keydown e (cursor keys in application mode with appCursor), or
//     null for a key left to the browser: Ctrl+Shift+letters and Cmd.
//   - ttyKeys.listen(opt) turns keydown, text that comes with no key of
//     its own (an input method's composition, 日本; a dead key's accent;
//     an emoji picker, in opt.ime, a textarea focused when opt.screen is
//     clicked) and paste (newlines as Enter, bracketed when
//     opt.modes().bracketed) into strings for opt.send while
//     opt.holding(); opt.modes().appCursor is the cursor key mode. Keys
//     typed into the page's own text fields stay there.
const webKeysSource = `const ttyKeys = (function () {
  "use strict";
  var keys = KEY_TABLES, ss3 = keys.ss3, cursorKeys = keys.cursor, tilde = keys.tilde;
  var ctrlPunct = {" ": 0, "@": 0, "2": 0, "[": 27, "3": 27, "\\": 28, "4": 28, "]": 29, "5": 29, "^": 30, "6": 30, "_": 31, "-": 31, "7": 31, "?": 127, "8": 127};

  function encode(e, appCursor) {
    var k = e.key, altGr = e.getModifierState && e.getModifierState("AltGraph");
    var ctrl = e.ctrlKey && !altGr, alt = e.altKey && !altGr;
    var mod = 1 + (e.shiftKey ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0);
    if (cursorKeys[k]) return mod > 1 ? "\x1b[1;" + mod + cursorKeys[k] : (appCursor ? "\x1bO" : "\x1b[") + cursorKeys[k];
    if (ss3[k]) return mod > 1 ? "\x1b[1;" + mod + ss3[k] : "\x1bO" + ss3[k];
    if (tilde[k]) return "\x1b[" + tilde[k] + (mod > 1 ? ";" + mod : "") + "~";
    var pre = alt ? "\x1b" : "";
    switch (k) {
      case "Enter": return pre + "\r";
      case "Backspace": return pre + (ctrl ? "\x08" : "\x7f");
      case "Tab": return e.shiftKey ? "\x1b[Z" : pre + "\t";
      case "Escape": return pre + "\x1b";
    }
    if (Array.from(k).length !== 1) return null;
    if (!ctrl) return pre + k;
    if (e.shiftKey && /^Key[A-Z]$/.test(e.code)) return null;
    var m = /^Key([A-Z])$/.exec(e.code);
    if (m) return pre + String.fromCharCode(m[1].charCodeAt(0) - 64);
    if (/^[a-z]$/i.test(k)) return pre + String.fromCharCode(k.toUpperCase().charCodeAt(0) - 64);
    return k in ctrlPunct ? pre + String.fromCharCode(ctrlPunct[k]) : null;
  }

  function listen(opt) {
    var ime = opt.ime;
    // field is a text field of the page's own, whose keys stay in it.
    function field(t) { return t !== ime && t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.nodeName); }
    document.addEventListener("keydown", function (e) {
      if (!opt.holding() || field(e.target) || e.metaKey || e.isComposing || e.keyCode === 229 || e.key === "Dead") return; // text to come from the input method
      var s = encode(e, opt.modes().appCursor);
      if (s === null) return;
      e.preventDefault();
      opt.send(s);
    });
    var composed = null;
    ime.addEventListener("compositionend", function (e) {
      if (opt.holding() && e.data) { opt.send(e.data); composed = e.data; }
      ime.value = "";
    });
    ime.addEventListener("input", function (e) {
      if (e.isComposing) return;
      var t = e.data || ime.value;
      ime.value = "";
      if (composed !== null && t === composed) { composed = null; return; } // compositionend sent it
      composed = null;
      if (opt.holding() && t && (e.inputType === "insertText" || e.inputType === "insertReplacementText" || e.inputType === "insertFromComposition")) opt.send(t);
    });
    opt.screen.addEventListener("click", function () { if (opt.holding()) ime.focus(); });
    document.addEventListener("paste", function (e) {
      if (!opt.holding() || field(e.target) || !e.clipboardData) return;
      var t = e.clipboardData.getData("text/plain");
      if (!t) return;
      e.preventDefault();
      t = t.replace(/\r\n?|\n/g, "\r");
      if (opt.modes().bracketed) t = "\x1b[200~" + t.split("\x1b[201~").join("") + "\x1b[201~";
      opt.send(t);
    });
  }

  return {encode: encode, listen: listen};
})();
`

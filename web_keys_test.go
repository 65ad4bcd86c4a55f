package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWebKeyTables: the browser's key tables hold every named key of
// xtermKeys that is no plain byte, by its DOM name, with xterm's bytes.
func TestWebKeyTables(t *testing.T) {
	t.Parallel()
	var tab struct {
		Cursor map[string]string `json:"cursor"`
		SS3    map[string]string `json:"ss3"`
		Tilde  map[string]int    `json:"tilde"`
	}
	if err := json.Unmarshal([]byte(webKeyTables()), &tab); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dom, table, want string
		tilde            int
	}{
		{"ArrowUp", "cursor", "A", 0}, {"ArrowLeft", "cursor", "D", 0}, {"Home", "cursor", "H", 0}, {"End", "cursor", "F", 0},
		{"F1", "ss3", "P", 0}, {"F4", "ss3", "S", 0},
		{"Insert", "tilde", "", 2}, {"PageDown", "tilde", "", 6}, {"F5", "tilde", "", 15}, {"F12", "tilde", "", 24},
	} {
		switch tt.table {
		case "cursor":
			if tab.Cursor[tt.dom] != tt.want {
				t.Errorf("cursor[%s] = %q, want %q", tt.dom, tab.Cursor[tt.dom], tt.want)
			}
		case "ss3":
			if tab.SS3[tt.dom] != tt.want {
				t.Errorf("ss3[%s] = %q, want %q", tt.dom, tab.SS3[tt.dom], tt.want)
			}
		case "tilde":
			if tab.Tilde[tt.dom] != tt.tilde {
				t.Errorf("tilde[%s] = %d, want %d", tt.dom, tab.Tilde[tt.dom], tt.tilde)
			}
		}
	}
	n := 0
	for _, k := range xtermKeys {
		if k.plain == "" {
			n++
		}
	}
	if got := len(tab.Cursor) + len(tab.SS3) + len(tab.Tilde); got != n {
		t.Errorf("the tables hold %d keys, xtermKeys %d that are no plain byte", got, n)
	}
	if strings.Contains(webKeysScript(), "KEY_TABLES") {
		t.Error("the script still holds its KEY_TABLES placeholder")
	}
}

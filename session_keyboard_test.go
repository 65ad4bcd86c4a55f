package main

// session_keyboard_test.go: who holds a session's keyboard, and what the
// agent is told about the person who took it.

import (
	"context"
	"strings"
	"testing"
)

// kbStep is one step of a keyboard scenario: viewer v (1-based, in the
// order added) does op, and the step checks the result.
type kbStep struct {
	op      string // "add", "take", "give", "remove", "type"
	v       int
	wantErr bool
	holder  string // after the step
	viewers int
}

func TestKeyboardHolder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []kbStep
	}{
		{"one viewer takes and gives back", []kbStep{
			{op: "add", v: 1, holder: holderAgent, viewers: 1},
			{op: "take", v: 1, holder: holderPerson, viewers: 1},
			{op: "take", v: 1, holder: holderPerson, viewers: 1},
			{op: "give", v: 1, holder: holderAgent, viewers: 1},
			{op: "give", v: 1, holder: holderAgent, viewers: 1},
		}},
		{"a second viewer cannot take it", []kbStep{
			{op: "add", v: 1, holder: holderAgent, viewers: 1},
			{op: "add", v: 2, holder: holderAgent, viewers: 2},
			{op: "take", v: 1, holder: holderPerson, viewers: 2},
			{op: "take", v: 2, wantErr: true, holder: holderPerson, viewers: 2},
			{op: "give", v: 2, holder: holderPerson, viewers: 2},
			{op: "type", v: 2, wantErr: true, holder: holderPerson, viewers: 2},
			{op: "give", v: 1, holder: holderAgent, viewers: 2},
			{op: "take", v: 2, holder: holderPerson, viewers: 2},
		}},
		{"leaving while holding gives it back", []kbStep{
			{op: "add", v: 1, holder: holderAgent, viewers: 1},
			{op: "take", v: 1, holder: holderPerson, viewers: 1},
			{op: "remove", v: 1, holder: holderAgent, viewers: 0},
			{op: "remove", v: 1, holder: holderAgent, viewers: 0},
			{op: "take", v: 1, wantErr: true, holder: holderAgent, viewers: 0},
		}},
		{"a viewer without the keyboard cannot type", []kbStep{
			{op: "add", v: 1, holder: holderAgent, viewers: 1},
			{op: "type", v: 1, wantErr: true, holder: holderAgent, viewers: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Session{ID: "shell-1", changed: make(chan struct{}), term: NewTerminal(10, 2, 0)}
			var ids []uint64
			var removes []func()
			for i, st := range tt.steps {
				var err error
				switch st.op {
				case "add":
					id, rm := s.AddViewer(viewerTerminal)
					ids, removes = append(ids, id), append(removes, rm)
				case "take":
					err = s.TakeKeyboard(ids[st.v-1])
				case "give":
					s.GiveKeyboard(ids[st.v-1])
				case "remove":
					removes[st.v-1]()
				case "type":
					err = s.PersonInput(context.Background(), ids[st.v-1], []byte("x"))
				}
				if (err != nil) != st.wantErr {
					t.Fatalf("step %d %s %d: error %v, want error %v", i, st.op, st.v, err, st.wantErr)
				}
				if k := s.Keyboard(); k.Holder != st.holder || k.Viewers != st.viewers {
					t.Fatalf("step %d %s %d: holder %s with %d viewers, want %s with %d", i, st.op, st.v, k.Holder, k.Viewers, st.holder, st.viewers)
				}
			}
		})
	}
}

// TestKeyboardInfoOmitted: with no viewer the reply's keyboard part is
// empty, so the agent reads nothing new; with one it says who holds it.
func TestKeyboardInfoOmitted(t *testing.T) {
	t.Parallel()
	s := &Session{ID: "shell-1", changed: make(chan struct{}), term: NewTerminal(10, 2, 0)}
	if k := s.KeyboardInfo(true); k != (KeyboardInfo{}) {
		t.Errorf("no viewer: %+v, want the zero value", k)
	}
	id, remove := s.AddViewer(viewerBrowser)
	if k := s.KeyboardInfo(true); k != (KeyboardInfo{Viewers: 1, Keyboard: holderAgent}) {
		t.Errorf("one viewer: %+v", k)
	}
	s.TakeKeyboard(id)
	if k := s.KeyboardInfo(false); k != (KeyboardInfo{Viewers: 1, Keyboard: holderPerson}) {
		t.Errorf("held: %+v", k)
	}
	if k := s.Keyboard(); k.ByKind[viewerBrowser] != 1 {
		t.Errorf("by kind: %v", k.ByKind)
	}
	remove()
	if k := s.KeyboardInfo(true); k != (KeyboardInfo{}) {
		t.Errorf("after the viewer left: %+v", k)
	}
}

// TestKeyboardRefusesAgent: while a person holds the keyboard shell_send
// and shell_click are refused with the fix, reads work and say so; the
// person's command is marked by: "person", and the agent's next reply
// says person_typed once.
func TestKeyboardRefusesAgent(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", nil, nil)
	s := a.sessions.Get(id)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
	vid, remove := s.AddViewer(viewerTerminal)
	defer remove()
	if err := s.TakeKeyboard(vid); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"shell_send", map[string]any{"session_id": id, "text": "echo agent\n"}},
		{"shell_click", map[string]any{"session_id": id, "row": 0, "col": 0}},
	} {
		r, _ := call(t, a, tool.name, tool.args)
		if !r.IsError || !strings.Contains(r.Text, "a person is typing in this session") || !strings.Contains(r.Text, "Ctrl-] g") {
			t.Errorf("%s while a person holds the keyboard: isError %v, %q", tool.name, r.IsError, r.Text)
		}
	}
	if err := s.PersonInput(context.Background(), vid, []byte("echo person-typed\r")); err != nil {
		t.Fatal(err)
	}
	w := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "/^person-typed$/", "timeout_ms": 10000})
	if w["keyboard"] != holderPerson || w["viewers"] != float64(1) || w["person_typed"] != true {
		t.Errorf("shell_wait while held: keyboard %v viewers %v person_typed %v", w["keyboard"], w["viewers"], w["person_typed"])
	}
	w = mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true, "timeout_ms": 10000})
	if c, _ := w["command"].(map[string]any); c["by"] != holderPerson {
		t.Errorf("the person's command: %v, want by person (%v)", w["command"], w)
	}
	s.GiveKeyboard(vid)
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo agent-typed\n", "wait_for_command": true})
	if _, ok := m["person_typed"]; ok || m["keyboard"] != holderAgent {
		t.Errorf("after the give back: person_typed %v keyboard %v, want no person_typed, keyboard agent", m["person_typed"], m["keyboard"])
	}
	if c, _ := m["command"].(map[string]any); c["by"] != nil {
		t.Errorf("the agent's command has by %v", c["by"])
	}
	remove()
	r := mustCall(t, a, "shell_read", map[string]any{"session_id": id})
	if _, ok := r["keyboard"]; ok {
		t.Errorf("no viewer: shell_read says keyboard %v", r["keyboard"])
	}
	cmds := s.commandsCopy()
	if len(cmds) < 2 || cmds[len(cmds)-2].by != holderPerson || cmds[len(cmds)-1].by != "" {
		for _, c := range cmds {
			t.Logf("command %d %q by %q", c.n, c.line, c.by)
		}
		t.Errorf("commands: %d, by of the last two wrong", len(cmds))
	}
}

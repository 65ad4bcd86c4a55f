package main

// tools_list_test.go: the golden of tools/list. Every byte of the tool
// definitions is read by the model before its first call, so their size
// is a reviewed number: testdata/tools/list.json is the result a
// 2025-11-25 client gets, and testdata/tools/bytes.txt its byte counts;
// list-apps.json and bytes-apps.txt are those of a client that declared
// the MCP Apps extension; all rewritten with go test -run
// TestToolsListGolden -update.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// toolsListBytes are the sizes a host sends: the whole tools/list result,
// the part shown to the model (each tool's name, description and input
// schema, as JSON), and the output schemas.
type toolsListBytes struct {
	total, visible, output int
	app                    int      // the app-only tools' (name, description, inputSchema)
	perTool                []string // "name visible output"
}

// goldenToolNames are the tool names of testdata/tools/list.json, the
// reviewed list, in order.
func goldenToolNames(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tools", "list.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// measureToolsList measures the tools/list result raw; the model sees no
// app-only tool (_meta.ui.visibility ["app"]): its host keeps them from
// the model, so they count apart, in app.
func measureToolsList(t *testing.T, raw json.RawMessage) toolsListBytes {
	t.Helper()
	var res struct{ Tools []map[string]json.RawMessage }
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	m := toolsListBytes{total: len(raw)}
	for _, tool := range res.Tools {
		b, err := json.Marshal(map[string]json.RawMessage{"name": tool["name"], "description": tool["description"], "inputSchema": tool["inputSchema"]})
		if err != nil {
			t.Fatal(err)
		}
		var meta struct{ UI struct{ Visibility []string } }
		json.Unmarshal(tool["_meta"], &meta)
		if slices.Equal(meta.UI.Visibility, []string{"app"}) {
			m.app += len(b)
		} else {
			m.visible += len(b)
		}
		m.output += len(tool["outputSchema"])
		var name string
		json.Unmarshal(tool["name"], &name)
		m.perTool = append(m.perTool, fmt.Sprintf("%-20s %6d %6d", name, len(b), len(tool["outputSchema"])))
	}
	return m
}

// toolsListBudget is the most the model-visible tool definitions may
// take: 11,000 bytes, down from 13,388 with the same tools and every
// argument described (TestToolArgsDescribed); each rule is said once, the
// wait options in a few words that every tool taking them repeats.
const toolsListBudget = 11000

// TestToolsListGolden compares tools/list with its goldens and checks the
// size goal, toolsListBudget, the same with the MCP Apps extension as
// without (list-apps.json, bytes-apps.txt).
func TestToolsListGolden(t *testing.T) {
	t.Parallel()
	var visible []int
	for _, tt := range []struct {
		suffix string
		caps   map[string]any
	}{{"", map[string]any{}}, {"-apps", appsCaps}} {
		c := startServer(t)
		r := c.request(0, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": tt.caps,
			"clientInfo": map[string]any{"name": "test", "version": "1"}})
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		r = c.request(1, "tools/list", nil)
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, r.Result, "", "  "); err != nil {
			t.Fatal(err)
		}
		m := measureToolsList(t, r.Result)
		counts := fmt.Sprintf("tools/list (2025-11-25): %d bytes\nmodel-visible (name, description, inputSchema): %d bytes\noutput schemas: %d bytes\n\n%-20s %6s %6s\n%s\n",
			m.total, m.visible, m.output, "tool", "model", "output", strings.Join(m.perTool, "\n"))
		if tt.suffix != "" {
			counts = fmt.Sprintf("with the MCP Apps extension (%s); the app's own tools, hidden from the model: %d bytes\n%s", appsExtension, m.app, counts)
		}
		for _, g := range []struct{ name, got string }{{"list" + tt.suffix + ".json", pretty.String() + "\n"}, {"bytes" + tt.suffix + ".txt", counts}} {
			path := filepath.Join("testdata", "tools", g.name)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(g.got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v: write it with go test -run TestToolsListGolden -update", err)
			}
			if string(want) != g.got {
				t.Errorf("%s differs from tools/list (go test -run TestToolsListGolden -update rewrites it, for review):\n%s", path, counts)
			}
		}
		if m.visible > toolsListBudget {
			t.Errorf("the model-visible tool definitions are %d bytes, over the %d-byte budget: say each rule once", m.visible, toolsListBudget)
		}
		visible = append(visible, m.visible)
	}
	if visible[0] != visible[1] {
		t.Errorf("the model sees %d bytes of tools with the MCP Apps extension, %d without: want the same", visible[1], visible[0])
	}
}

// TestToolArgsDescribed reads each tool as a model does, from its name,
// description and input schema alone, and checks that every argument
// says what it does or is self-explanatory by this rule: its schema has a
// description, or the tool's description names it (as a word, "at row
// and col"), or it is session_id, which shell_start's description
// defines once as its shell_session_id. A field of an object argument
// (style's bold, border's title) is read with its parent's description.
func TestToolArgsDescribed(t *testing.T) {
	t.Parallel()
	a := newApp(Config{})
	for _, tool := range a.tools.list() {
		if tool.Name == "shell_start" && !strings.Contains(tool.Description, "shell_session_id, the other tools' session_id") {
			t.Errorf("shell_start: its description does not say that shell_session_id is the session_id the other tools take: %q", tool.Description)
		}
		if tool.App == appOnly { // the model never sees it
			continue
		}
		props, _ := tool.Input["properties"].(map[string]any)
		for name, p := range props {
			d, _ := p.(map[string]any)["description"].(string)
			named := regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(name) + `([^\w]|$)`).MatchString(tool.Description)
			if strings.TrimSpace(d) == "" && !named && name != "session_id" {
				t.Errorf("%s.%s: no description, and the tool's description does not name it", tool.Name, name)
			}
		}
	}
}

package main

// tools_list_test.go: the golden of tools/list. Every byte of the tool
// definitions is read by the model before its first call, so their size
// is a reviewed number: testdata/tools/list.json is the result a
// 2025-11-25 client gets, and testdata/tools/bytes.txt its byte counts,
// both rewritten with go test -run TestToolsListGolden -update.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toolsListBytes are the sizes a host sends: the whole tools/list result,
// the part shown to the model (each tool's name, description and input
// schema, as JSON), and the output schemas.
type toolsListBytes struct {
	total, visible, output int
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

// measureToolsList measures the tools/list result raw.
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
		m.visible += len(b)
		m.output += len(tool["outputSchema"])
		var name string
		json.Unmarshal(tool["name"], &name)
		m.perTool = append(m.perTool, fmt.Sprintf("%-20s %6d %6d", name, len(b), len(tool["outputSchema"])))
	}
	return m
}

// TestToolsListGolden compares tools/list with its golden and checks the
// size goals: the model-visible part at most 13,317 bytes, half the 26,635 it was
// with one tool fewer.
func TestToolsListGolden(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	c.initialize("2025-11-25")
	r := c.request(1, "tools/list", nil)
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
	for _, g := range []struct{ name, got string }{{"list.json", pretty.String() + "\n"}, {"bytes.txt", counts}} {
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
	if m.visible > 13317 {
		t.Errorf("the model-visible tool definitions are %d bytes, over the 13,317-byte budget: say each rule once", m.visible)
	}
}

package main

import "testing"

// TestAppendSSE checks the one event writer: id and name lines only when
// given, and data split at every line break so that no byte of it ends
// the event or starts a field.
func TestAppendSSE(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id         uint64
		name, data string
		want       string
	}{
		{0, "message", `{"jsonrpc":"2.0"}`, "event: message\ndata: {\"jsonrpc\":\"2.0\"}\n\n"},
		{7, "message", "{}\n", "id: 7\nevent: message\ndata: {}\n\n"},
		{0, "", "a", "data: a\n\n"},
		{0, "screen", "{\n\"a\":1}", "event: screen\ndata: {\ndata: \"a\":1}\n\n"},
		{0, "screen", "{\r\n\"a\":1\r}", "event: screen\ndata: {\ndata: \"a\":1\ndata: }\n\n"},
		{0, "x", "a\n\nevent: end\ndata: b", "event: x\ndata: a\ndata: \ndata: event: end\ndata: data: b\n\n"},
		{0, "x", "", "event: x\ndata: \n\n"},
	} {
		if got := string(appendSSE(nil, tc.id, tc.name, []byte(tc.data))); got != tc.want {
			t.Errorf("appendSSE(%d, %q, %q) = %q, want %q", tc.id, tc.name, tc.data, got, tc.want)
		}
	}
}

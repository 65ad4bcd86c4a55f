package main

// tools_list.go: the tools the server offers. A new tool is a file
// tool_<name>.go and a line here (docs/ARCHITECTURE.md, "Where to add").

// list returns every tool the server offers, in tools/list order.
func (tb *Toolbox) list() []*Tool {
	return []*Tool{
		tb.toolShellStart(),
		tb.toolShellSend(),
		tb.toolShellRead(),
		tb.toolShellFind(),
		tb.toolShellClick(),
		tb.toolShellWait(),
		tb.toolShellAskSecret(),
		tb.toolShellScreenshot(),
		tb.toolShellRecordStart(),
		tb.toolShellRecordStop(),
		tb.toolShellResize(),
		tb.toolShellStop(),
		// The terminal app's own, hidden from the model (tools_app.go).
		tb.toolAppScreen(),
		tb.toolAppCommands(),
		tb.toolAppKeyboard(),
		tb.toolAppSecret(),
	}
}

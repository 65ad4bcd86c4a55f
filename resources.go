package main

// resources.go: MCP resources, subscriptions, completion. SKELETON: the
// resources work replaces it and keeps these hooks.

// resourceUpdated tells subscribers that uri changed (debounced per URI).
func (a *App) resourceUpdated(uri string) {}

// resourceListChanged tells the client that sessions or captures came or went.
func (a *App) resourceListChanged() {}

// resourceMethods returns the resources/*, prompts/* and completion/complete
// handlers, merged into the server's method table by mcp.go.
func (a *App) resourceMethods() map[string]Method { return nil }

package main

// mcp_methods.go: the table of the MCP methods a connection serves
// besides the lifecycle, logging and tools (mcp.go) and
// subscriptions/listen (mcp_listen.go), and the file that serves each.

// methodTable returns s's methods by name.
func (s *Server) methodTable() map[string]Method {
	h := s.hub
	return map[string]Method{
		"resources/list":           h.resourcesList,          // resources.go
		"resources/templates/list": h.resourcesTemplatesList, // resources.go
		"resources/read":           h.resourcesRead,          // resources.go
		"resources/subscribe":      s.resourcesSubscribe,     // resources_subs.go: the connection's own
		"resources/unsubscribe":    s.resourcesUnsubscribe,   // resources_subs.go
		"prompts/list":             h.promptsList,            // mcp_prompts.go
		"prompts/get":              h.promptsGet,             // mcp_prompts.go
		"completion/complete":      h.completionComplete,     // mcp_completion.go
	}
}

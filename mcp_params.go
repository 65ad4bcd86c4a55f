package main

// mcp_params.go: what every protocol method shares: its params decoded
// with errors in the request's terms (-32602), and pagination.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// invalidParams is the JSON-RPC error -32602 with a message naming the
// problem.
func invalidParams(format string, a ...any) *RPCError {
	return &RPCError{Code: codeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, a...)}
}

// bindParams decodes a request's params into v (absent or null params
// leave v as is); bad JSON or wrong types are -32602.
func bindParams(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		// Said in the request's terms, not Go's ("cannot unmarshal number
		// into Go struct field").
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return invalidParams("in %q: %s given where %s is needed", te.Field, te.Value, jsonKind(te.Type))
		}
		return invalidParams("params must be a JSON object of the method's fields")
	}
	return nil
}

// paginate returns the page of items that cursor points at (the first page
// for ""), at most size long, and the cursor of the next page ("" at the
// end). Cursors are opaque: base64 of "o:" and an offset. A malformed
// cursor is -32602; an offset past the end (the list shrank) is an empty
// last page.
func paginate[T any](items []T, cursor string, size int) ([]T, string, error) {
	off := 0
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		n, ok := strings.CutPrefix(string(b), "o:")
		if err == nil && ok {
			off, err = strconv.Atoi(n)
		}
		if err != nil || !ok || off < 0 {
			return nil, "", invalidParams("cursor %q is not one this server gave out: omit it to start from the first page", cursor)
		}
	}
	if off >= len(items) {
		return []T{}, "", nil
	}
	end := min(off+size, len(items))
	next := ""
	if end < len(items) {
		next = base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(end)))
	}
	return items[off:end], next, nil
}

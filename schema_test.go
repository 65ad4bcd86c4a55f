package main

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// schemaType is the JSON Schema type a value of Go type t encodes to
// (object for one schemaKind leaves open).
func schemaType(t reflect.Type) string { return cmp.Or(schemaKind(t), "object") }

// stringList reads a JSON Schema list of names ([]string as written).
func stringList(v any) []string {
	l, _ := v.([]string)
	return l
}

// errorReporter is the part of testing.T that checkSchema uses, so that
// a test can check the checker.
type errorReporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// driftLog counts what checkSchema reported.
type driftLog struct{ errors []string }

func (d *driftLog) Helper() {}
func (d *driftLog) Errorf(format string, args ...any) {
	d.errors = append(d.errors, fmt.Sprintf(format, args...))
}

// checkSchema compares an object schema with the struct t: the same
// property names, each with the type its field encodes to (recursing
// into object and array-of-object properties), required naming fields.
// With output set, a field is required exactly when it is always sent
// (no omitempty).
func checkSchema(t errorReporter, where string, schema map[string]any, typ reflect.Type, output bool) {
	t.Helper()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	props, _ := schema["properties"].(map[string]any)
	required := stringList(schema["required"])
	fields := jsonFields(typ)
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f.name] = true
		p, ok := props[f.name].(map[string]any)
		if !ok {
			t.Errorf("%s: field %q (%s) is not in the schema's properties", where, f.name, f.typ)
			continue
		}
		if got, want := p["type"], schemaType(f.typ); got != want {
			t.Errorf("%s.%s: schema type %v, the field encodes to %s", where, f.name, got, want)
		}
		ft := f.typ
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			if ft.Kind() == reflect.Slice {
				items, _ := p["items"].(map[string]any)
				if items == nil {
					t.Errorf("%s.%s: array without items", where, f.name)
					break
				}
				if got, want := items["type"], schemaType(ft.Elem()); got != want {
					t.Errorf("%s.%s: items type %v, the elements encode to %s", where, f.name, got, want)
				}
				p = items
			}
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			checkSchema(t, where+"."+f.name, p, ft, output)
		}
		if output {
			if got, want := slices.Contains(required, f.name), !f.omitEmpty; got != want {
				t.Errorf("%s: %q required %v, want %v (the field is always sent: %v)", where, f.name, got, want, !f.omitEmpty)
			}
		}
	}
	for name := range props {
		if !seen[name] {
			t.Errorf("%s: property %q has no field in %s", where, name, typ)
		}
	}
	for _, name := range required {
		if !seen[name] {
			t.Errorf("%s: required %q has no field in %s", where, name, typ)
		}
	}
}

// TestToolSchemasMatchStructs: every tool's input schema describes the
// struct its arguments decode into, and its output schema the struct its
// result encodes from, so that neither drifts from the code.
func TestToolSchemasMatchStructs(t *testing.T) {
	t.Parallel()
	a := newApp(Config{})
	for _, tool := range a.tools.list() {
		if tool.argsType == nil || tool.resultType == nil {
			t.Errorf("%s: not built with newTool", tool.Name)
			continue
		}
		if tool.Input["type"] != "object" || tool.Output["type"] != "object" {
			t.Errorf("%s: input type %v, output type %v, want object roots", tool.Name, tool.Input["type"], tool.Output["type"])
		}
		checkSchema(t, tool.Name+" input", tool.Input, tool.argsType, false)
		checkSchema(t, tool.Name+" output", tool.Output, tool.resultType, true)
	}
}

// TestCheckSchemaCatchesDrift: the check fails on each kind of drift.
func TestCheckSchemaCatchesDrift(t *testing.T) {
	t.Parallel()
	type args struct {
		ID    string `json:"id"`
		Count *int   `json:"count,omitempty"`
	}
	var d driftLog
	good := outputSchema(map[string]any{"id": prop("string", ""), "count": prop("integer", "")}, "id")
	if checkSchema(&d, "x", good, reflect.TypeFor[args](), true); len(d.errors) != 0 {
		t.Errorf("checkSchema refused a matching schema: %q", d.errors)
	}
	tests := []struct {
		name   string
		schema map[string]any
		output bool
	}{
		{"missing property", outputSchema(map[string]any{"id": prop("string", "")}, "id"), true},
		{"extra property", outputSchema(map[string]any{"id": prop("string", ""), "count": prop("integer", ""), "x": prop("string", "")}, "id"), true},
		{"wrong type", outputSchema(map[string]any{"id": prop("integer", ""), "count": prop("integer", "")}, "id"), true},
		{"always sent, not required", outputSchema(map[string]any{"id": prop("string", ""), "count": prop("integer", "")}), true},
		{"required, may be left out", outputSchema(map[string]any{"id": prop("string", ""), "count": prop("integer", "")}, "id", "count"), true},
		{"required without field", objectSchema(map[string]any{"id": prop("string", ""), "count": prop("integer", "")}, "nope"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d driftLog
			checkSchema(&d, "x", tt.schema, reflect.TypeFor[args](), tt.output)
			if len(d.errors) != 1 {
				t.Errorf("checkSchema reported %d problems, want 1: %q", len(d.errors), d.errors)
			}
		})
	}
}

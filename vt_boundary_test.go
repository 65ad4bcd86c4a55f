package main

// vt_boundary_test.go: the terminal emulator (the non-test vt*.go files)
// is a pure function of the bytes it is fed. It uses nothing declared in
// the rest of the package and imports no package that can reach the
// operating system, so the server can be audited without it and it can be
// fuzzed without side effects. This test keeps that checkable.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// emulatorPureImports are the packages an emulator file may import: none
// of them opens a file, a socket or a process, or writes to stdout by
// itself (fmt does, with Print, and so is not here). io is interfaces
// only: bytes reach a Writer the caller passed in.
var emulatorPureImports = []string{
	"bytes", "cmp", "encoding/binary", "errors", "io", "iter", "maps", "math", "math/bits",
	"slices", "sort", "strconv", "strings", "sync", "sync/atomic",
	"unicode", "unicode/utf16", "unicode/utf8",
}

// emulatorShared are the non-vt files the emulator may use because they
// are held to the same rules (checked below when they exist): ansi.go
// encodes cells as SGR for the emulator's DECRQSS reply and for the
// capture writers alike.
var emulatorShared = []string{}

// emulatorServerNames are the server names the emulator may use, each
// with why it does no I/O. Keep this short: a new entry is a design
// change for the reviewer to see. None today: the session hands the
// emulator what it needs to report (SetColors, SetTermName, SetVersion).
var emulatorServerNames = map[string]string{}

// isEmulatorFile reports whether name, a file in the package directory,
// belongs to the emulator.
func isEmulatorFile(name string) bool {
	if strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") {
		return false
	}
	return strings.HasPrefix(name, "vt") || slices.Contains(emulatorShared, name)
}

// packageFiles parses the package's non-test files, build-ignored
// generators (mkfont.go, mkwidth.go) left out, keyed by file name.
func packageFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "\n//go:build ignore\n") || strings.HasPrefix(string(src), "//go:build ignore\n") {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, 0) // with object resolution: File.Unresolved
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	return fset, files
}

// topLevelNames returns the package-level names f declares (functions,
// types, variables, constants; not methods) and, separately, the names of
// its methods keyed by receiver type.
func topLevelNames(f *ast.File) (names []string, methods map[string][]string) {
	methods = map[string][]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
				continue
			}
			recv := d.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			if g, ok := recv.(*ast.IndexExpr); ok {
				recv = g.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				methods[id.Name] = append(methods[id.Name], d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names, methods
}

// TestEmulatorBoundary fails when an emulator file imports a package not
// in emulatorPureImports, refers to a package-level name declared outside
// the emulator files, or calls a method that a server file declares on
// an emulator type.
func TestEmulatorBoundary(t *testing.T) {
	fset, files := packageFiles(t)
	emu := map[string]bool{} // names declared by the emulator
	server := map[string]string{}
	serverMethods := map[string]string{} // method name -> file, on emulator types
	var emuFiles []string
	for name, f := range files {
		names, _ := topLevelNames(f)
		for _, n := range names {
			if isEmulatorFile(name) {
				emu[n] = true
			} else {
				server[n] = name
			}
		}
		if isEmulatorFile(name) {
			emuFiles = append(emuFiles, name)
		}
	}
	for name, f := range files {
		if isEmulatorFile(name) {
			continue
		}
		_, methods := topLevelNames(f)
		for recv, ms := range methods {
			if emu[recv] {
				for _, m := range ms {
					serverMethods[m] = name + " (on " + recv + ")"
				}
			}
		}
	}
	sort.Strings(emuFiles)
	if !slices.Contains(emuFiles, "vt.go") || !slices.Contains(emuFiles, "vt_parser.go") {
		t.Fatalf("emulator files %v: want vt.go and vt_parser.go among them", emuFiles)
	}
	emuMembers := map[string]bool{} // fields and methods the emulator declares
	for _, name := range emuFiles {
		f := files[name]
		_, methods := topLevelNames(f)
		for _, ms := range methods {
			for _, m := range ms {
				emuMembers[m] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if fl, ok := n.(*ast.Field); ok {
				for _, id := range fl.Names {
					emuMembers[id.Name] = true
				}
			}
			return true
		})
	}

	for _, name := range emuFiles {
		f := files[name]
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if !slices.Contains(emulatorPureImports, path) {
				t.Errorf("%s imports %q: the emulator does no I/O; keep it to %v (or, for a pure package, add it there)",
					fset.Position(imp.Pos()), path, emulatorPureImports)
			}
		}
		for _, id := range f.Unresolved {
			if emu[id.Name] || emulatorServerNames[id.Name] == server[id.Name] && server[id.Name] != "" {
				continue
			}
			if from, ok := server[id.Name]; ok {
				t.Errorf("%s uses %s, declared in %s: the emulator must not depend on the server",
					fset.Position(id.Pos()), id.Name, from)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || emuMembers[sel.Sel.Name] {
				return true
			}
			if from, ok := serverMethods[sel.Sel.Name]; ok {
				t.Errorf("%s calls %s, a method declared in %s: the emulator must not depend on the server",
					fset.Position(sel.Sel.Pos()), sel.Sel.Name, from)
			}
			return true
		})
	}
}

// TestEmulatorBoundaryCatches runs the checks of TestEmulatorBoundary's
// name rule on a made-up emulator file, so a rule that silently matches
// nothing (File.Unresolved left empty, say) fails here.
func TestEmulatorBoundaryCatches(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // server names the file is reported to use
	}{
		{"package main\nfunc f(c Cell) int { x := 1; return x + len(c.s) }", nil},
		{"package main\nfunc f() { newApp(Config{}) }", []string{"newApp", "Config"}},
		{"package main\nvar v = Cell{Fg: defaultTheme}", []string{"defaultTheme"}},
		{"package main\nfunc f() (t Theme) { return }", []string{"Theme"}},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "vt_x.go", tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		server := map[string]bool{"newApp": true, "Config": true, "defaultTheme": true, "Theme": true, "Fg": true}
		var got []string
		for _, id := range f.Unresolved {
			if server[id.Name] {
				got = append(got, id.Name)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: reported %q, want %q", tc.src, got, tc.want)
		}
	}
}

package main

// rooms_test.go: the rooms of docs/ARCHITECTURE.md, held by the type
// checker. The table in that document is this test's input: each room
// names its files (globs) and the rooms it may use, and a room may use
// only rooms listed below it, so the layering has no upward call and no
// two rooms use each other. The test type-checks the package with
// go/types and fails when a file uses a name (a package-level name, a
// method or a field) declared in a file of a room its own room may not
// use, writes a package-level variable of another room, or is in no room.

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// architectureDoc holds the rooms table.
const architectureDoc = "docs/ARCHITECTURE.md"

// roomRow is one row of the rooms table.
type roomRow struct {
	name  string
	globs []string        // file name patterns (filepath.Match)
	uses  map[string]bool // the rooms it may use
	index int             // its row: a room uses only rooms of a higher index
}

// roomTable is the parsed rooms table, rows in order.
type roomTable struct {
	rooms  []*roomRow
	byName map[string]*roomRow
}

// parseRoomTable reads the table under the "## Rooms" heading of doc: the
// Room column names the room, the Files column lists backquoted globs, the
// May use column lists room names separated by commas ("nothing" for
// none). Every room it may use must be a row below it.
func parseRoomTable(doc string) (*roomTable, error) {
	t := &roomTable{byName: map[string]*roomRow{}}
	var uses [][]string
	in := false
	sc := bufio.NewScanner(strings.NewReader(doc))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(text, "## ") {
			in = text == "## Rooms"
			continue
		}
		if !in || !strings.HasPrefix(text, "|") {
			continue
		}
		cols := strings.Split(strings.Trim(text, "|"), "|")
		if len(cols) != 4 {
			return nil, fmt.Errorf("%s:%d: a rooms row has 4 columns (Room, Files, Owns, May use), not %d", architectureDoc, line, len(cols))
		}
		name := strings.TrimSpace(cols[0])
		if name == "Room" || strings.Trim(name, "-: ") == "" {
			continue // the header and its rule
		}
		r := &roomRow{name: name, uses: map[string]bool{}, index: len(t.rooms)}
		for _, g := range strings.Split(cols[1], "`")[1:] {
			if g = strings.TrimSpace(g); g != "" && !strings.HasPrefix(g, ",") {
				r.globs = append(r.globs, g)
			}
		}
		if len(r.globs) == 0 {
			return nil, fmt.Errorf("%s:%d: room %s lists no files (backquoted globs)", architectureDoc, line, name)
		}
		if t.byName[name] != nil {
			return nil, fmt.Errorf("%s:%d: room %s is listed twice", architectureDoc, line, name)
		}
		t.rooms = append(t.rooms, r)
		t.byName[name] = r
		var u []string
		for _, n := range strings.Split(cols[3], ",") {
			if n = strings.TrimSpace(n); n != "" && n != "nothing" {
				u = append(u, n)
			}
		}
		uses = append(uses, u)
	}
	if len(t.rooms) == 0 {
		return nil, fmt.Errorf("%s has no rooms table under \"## Rooms\"", architectureDoc)
	}
	for i, r := range t.rooms {
		for _, n := range uses[i] {
			o := t.byName[n]
			switch {
			case o == nil:
				return nil, fmt.Errorf("%s: room %s may use %q, which is no room", architectureDoc, r.name, n)
			case o.index <= r.index:
				return nil, fmt.Errorf("%s: room %s may use %s, which is listed above it: a room uses only rooms below it (no upward calls)", architectureDoc, r.name, n)
			}
			r.uses[n] = true
		}
	}
	return t, nil
}

// roomOf returns the room whose globs match file, or an error when none
// or several do.
func (t *roomTable) roomOf(file string) (*roomRow, error) {
	var found []*roomRow
	for _, r := range t.rooms {
		for _, g := range r.globs {
			if ok, _ := filepath.Match(g, file); ok {
				found = append(found, r)
				break
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%s is in no room: add it to a room's files in %s", file, architectureDoc)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("%s is in rooms %s and %s: make the globs in %s disjoint", file, found[0].name, found[1].name, architectureDoc)
}

// emulatorImports are the packages an emulator file may import: none of
// them opens a file, a socket or a process, or writes to stdout by itself
// (fmt does, with Print, and so is not here). io is interfaces only:
// bytes reach a Writer the caller passed in.
var emulatorImports = []string{
	"bytes", "cmp", "encoding/binary", "errors", "io", "iter", "maps", "math", "math/bits",
	"slices", "sort", "strconv", "strings", "sync", "sync/atomic",
	"unicode", "unicode/utf16", "unicode/utf8",
}

// roomReport is what checkRooms found: the broken rules, and the uses
// between files for the figures.
type roomReport struct {
	violations []string
	uses       map[[2]string]int   // (using file, declaring file) -> identifiers
	roomOf     map[string]*roomRow // file -> its room
}

// roomsSource is the package in "." as every checkRooms call shares it:
// its files parsed once (the mutation tests check the package five more
// times with a file or two added), and one importer of its imports.
type roomsSource struct {
	fset  *token.FileSet
	names []string             // every non-test .go file, all platforms
	files map[string]*ast.File // those built on this platform, by name
	imp   types.Importer
}

// loadRoomsSource parses the package in "." and makes its importer.
var loadRoomsSource = sync.OnceValues(func() (*roomsSource, error) {
	src := &roomsSource{fset: token.NewFileSet(), files: map[string]*ast.File{}}
	names, err := filepath.Glob("*.go")
	if err != nil {
		return nil, err
	}
	imports := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src.names = append(src.names, name)
		if ok, err := build.Default.MatchFile(".", name); err != nil || !ok {
			continue // another platform's file: in a room, not type-checked here
		}
		f, err := parser.ParseFile(src.fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		src.files[name] = f
		for _, imp := range f.Imports {
			imports[strings.Trim(imp.Path.Value, `"`)] = true
		}
	}
	src.imp = roomsImporter(src.fset, slices.Sorted(maps.Keys(imports)))
	return src, nil
})

// roomsImporter imports paths, the package's imports, from the export
// data the go command built for this test binary (go list -export, with
// -race under the race detector, whose build that is): milliseconds where
// type-checking the standard library from source took seconds. Without
// the go command it imports from source. Safe for concurrent use.
func roomsImporter(fset *token.FileSet, paths []string) types.Importer {
	args := []string{"list", "-export", "-f", "{{.ImportPath}}\t{{.Export}}"}
	if raceEnabled {
		args = append(args, "-race")
	}
	out, err := exec.Command("go", append(args, paths...)...).Output()
	if err != nil {
		return &lockedImporter{imp: importer.ForCompiler(fset, "source", nil)}
	}
	export := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if path, file, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok && file != "" {
			export[path] = file
		}
	}
	return &lockedImporter{imp: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if file, ok := export[path]; ok {
			return os.Open(file)
		}
		return nil, fmt.Errorf("go list -export gave no export data for %s", path)
	})}
}

// lockedImporter serialises an importer, which keeps its packages in a
// map of its own: the mutation tests check the package side by side.
type lockedImporter struct {
	mu  sync.Mutex
	imp types.Importer
}

func (l *lockedImporter) Import(path string) (*types.Package, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.imp.Import(path)
}

// checkRooms checks the package in "." against t. extra adds files (name
// -> source) to the package, for tests of the checker itself; they are
// type-checked whatever their names say of the platform.
func checkRooms(t *roomTable, extra map[string]string) (*roomReport, error) {
	rep := &roomReport{uses: map[[2]string]int{}, roomOf: map[string]*roomRow{}}
	src, err := loadRoomsSource()
	if err != nil {
		return nil, err
	}
	names := slices.Clone(src.names)
	for n := range extra {
		names = append(names, n)
	}
	sort.Strings(names)
	names = slices.Compact(names) // an extra file of a package file's name replaces it
	fset := src.fset
	var files []*ast.File
	for _, name := range names {
		r, err := t.roomOf(name)
		if err != nil {
			rep.violations = append(rep.violations, err.Error())
			r = &roomRow{name: "(none)", uses: map[string]bool{}} // checked all the same
		}
		rep.roomOf[name] = r
		f := src.files[name]
		if text, isExtra := extra[name]; isExtra {
			if f, err = parser.ParseFile(fset, name, text, parser.SkipObjectResolution); err != nil {
				return nil, err
			}
		}
		if f != nil {
			files = append(files, f)
		}
	}
	conf := types.Config{Importer: src.imp}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check("main", fset, files, info)
	if err != nil {
		return nil, fmt.Errorf("type-checking the package: %v", err)
	}
	declFile := func(o types.Object) string { return fset.Position(o.Pos()).Filename }
	for _, f := range files {
		name := fset.Position(f.Pos()).Filename
		from := rep.roomOf[name]
		rep.checkImports(fset, f, from)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				o := info.Uses[n]
				if !packageMember(pkg, o) || declFile(o) == name {
					return true
				}
				decl := declFile(o)
				rep.uses[[2]string{name, decl}]++
				if to := rep.roomOf[decl]; to != from && !from.uses[to.name] {
					rep.violations = append(rep.violations, fmt.Sprintf("%s: %s (declared in %s, room %s): room %s may not use room %s (%s: %s may use %s)",
						fset.Position(n.Pos()), n.Name, decl, to.name, from.name, to.name, architectureDoc, from.name, usesList(from)))
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					rep.checkWrite(fset, info, pkg, name, from, l)
				}
			case *ast.IncDecStmt:
				rep.checkWrite(fset, info, pkg, name, from, n.X)
			}
			return true
		})
		if from.name == "Emulator" {
			rep.checkFuncVars(fset, info, f)
		}
	}
	return rep, nil
}

// packageMember reports whether o is declared in pkg at package level, or
// is a method or field of one of its types: a name another file can use.
func packageMember(pkg *types.Package, o types.Object) bool {
	if o == nil || o.Pkg() != pkg {
		return false
	}
	switch o := o.(type) {
	case *types.PkgName, *types.Label:
		return false
	case *types.Var:
		return o.IsField() || o.Parent() == pkg.Scope()
	case *types.Func:
		return o.Parent() == pkg.Scope() || o.Type().(*types.Signature).Recv() != nil
	}
	return o.Parent() == pkg.Scope()
}

// checkWrite flags an assignment to a package-level variable declared in
// another room: configuration goes down as values, and a variable one
// room sets and another calls is a way around the table.
func (rep *roomReport) checkWrite(fset *token.FileSet, info *types.Info, pkg *types.Package, file string, from *roomRow, lhs ast.Expr) {
	id := rootIdent(lhs)
	if id == nil {
		return
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != pkg || v.Parent() != pkg.Scope() {
		return
	}
	decl := fset.Position(v.Pos()).Filename
	if to := rep.roomOf[decl]; to != from {
		rep.violations = append(rep.violations, fmt.Sprintf("%s: writes %s, a variable of room %s (declared in %s): pass configuration down as values",
			fset.Position(id.Pos()), id.Name, to.name, decl))
	}
}

// rootIdent is the variable an assignment target writes into: x for x,
// x.f, x[i], *x and (x).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// checkImports holds the emulator to emulatorImports.
func (rep *roomReport) checkImports(fset *token.FileSet, f *ast.File, from *roomRow) {
	if from.name != "Emulator" {
		return
	}
	for _, imp := range f.Imports {
		if p := strings.Trim(imp.Path.Value, `"`); !slices.Contains(emulatorImports, p) {
			rep.violations = append(rep.violations, fmt.Sprintf("%s: the emulator imports %q: it may import only %s (no I/O)", fset.Position(imp.Pos()), p, strings.Join(emulatorImports, ", ")))
		}
	}
}

// checkFuncVars flags a package-level variable in an emulator file whose
// value holds a function: another room could set it and be called back
// from the emulator.
func (rep *roomReport) checkFuncVars(fset *token.FileSet, info *types.Info, f *ast.File) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, id := range spec.(*ast.ValueSpec).Names {
				if o := info.Defs[id]; o != nil && holdsFunc(o.Type(), 0) {
					rep.violations = append(rep.violations, fmt.Sprintf("%s: %s is a package-level variable holding a function in the emulator: another room could set it and be called back; pass behaviour in through a Terminal method", fset.Position(id.Pos()), id.Name))
				}
			}
		}
	}
}

// holdsFunc reports whether a value of type t can hold a function.
func holdsFunc(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		return u.NumMethods() == 0 && depth == 0 // any: a func fits
	case *types.Pointer:
		return holdsFunc(u.Elem(), depth+1)
	case *types.Slice:
		return holdsFunc(u.Elem(), depth+1)
	case *types.Array:
		return holdsFunc(u.Elem(), depth+1)
	case *types.Map:
		return holdsFunc(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsFunc(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// usesList names the rooms r may use, for messages.
func usesList(r *roomRow) string {
	var names []string
	for n := range r.uses {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "nothing"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// loadRoomTable reads and parses the rooms table.
func loadRoomTable(t *testing.T) *roomTable {
	t.Helper()
	doc, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	table, err := parseRoomTable(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	return table
}

// TestRooms checks the package against the rooms table, and logs the
// figures of who uses whom (go test -v -run TestRooms).
func TestRooms(t *testing.T) {
	t.Parallel()
	table := loadRoomTable(t)
	rep, err := checkRooms(table, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.violations {
		t.Error(v)
	}
	t.Log(rep.figures())
}

// figures counts the room pairs and file pairs that use each other.
func (rep *roomReport) figures() string {
	roomPairs := map[[2]string]bool{}
	mutualCross, mutualInside := 0, 0
	for k := range rep.uses {
		a, b := k[0], k[1]
		ra, rb := rep.roomOf[a], rep.roomOf[b]
		if ra != rb && rep.usesRoom(rb, ra) {
			roomPairs[[2]string{min(ra.name, rb.name), max(ra.name, rb.name)}] = true
		}
		if a < b && rep.uses[[2]string{b, a}] > 0 {
			if ra == rb {
				mutualInside++
			} else {
				mutualCross++
			}
		}
	}
	return fmt.Sprintf("%d file-to-file uses; room pairs that use each other: %d; file pairs of different rooms that use each other: %d; file pairs inside one room that do: %d",
		len(rep.uses), len(roomPairs), mutualCross, mutualInside)
}

// usesRoom reports whether some file of room a uses a file of room b.
func (rep *roomReport) usesRoom(a, b *roomRow) bool {
	for k := range rep.uses {
		if rep.roomOf[k[0]] == a && rep.roomOf[k[1]] == b {
			return true
		}
	}
	return false
}

// TestRoomsCatchMutations checks the checker: each mutation, a file added
// to the package, must be reported with its file, the name and the rule.
func TestRoomsCatchMutations(t *testing.T) {
	t.Parallel()
	table := loadRoomTable(t)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"session calls the protocol", map[string]string{
			"session_mutant.go": "package main\n\nfunc mutantUp() { _ = invalidParams(\"x\") }\n",
		}, "session_mutant.go:3:23: invalidParams (declared in mcp_params.go, room Protocol): room Session may not use room Protocol"},
		{"a server method on an emulator type named like an emulator member", map[string]string{
			"tools_mutant.go": "package main\n\nimport \"os\"\n\nfunc (s Snapshot) Lines() int { os.Exit(1); return 0 }\n",
			"vt_mutant.go":    "package main\n\nfunc mutantLines(s Snapshot) int { return s.Lines() }\n",
		}, "vt_mutant.go:3:45: Lines (declared in tools_mutant.go, room Tools): room Emulator may not use room Tools"},
		{"a function variable in the emulator set by a server file", map[string]string{
			"vt_mutant.go":    "package main\n\nvar vtHook func(string)\n\nfunc mutantHook() { vtHook(\"x\") }\n",
			"tools_mutant.go": "package main\n\nimport \"os\"\n\nfunc init() { vtHook = func(s string) { os.WriteFile(s, nil, 0o600) } }\n",
		}, "tools_mutant.go:5:15: writes vtHook, a variable of room Emulator"},
		{"the same function variable, declared", map[string]string{
			"vt_mutant.go": "package main\n\nvar vtHook func(string)\n\nfunc mutantHook() { vtHook(\"x\") }\n",
		}, "vt_mutant.go:3:5: vtHook is a package-level variable holding a function in the emulator"},
		{"a file in no room", map[string]string{
			"stray.go": "package main\n",
		}, "stray.go is in no room"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep, err := checkRooms(table, tc.files)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(rep.violations, func(v string) bool { return strings.HasPrefix(v, tc.want) }) {
				t.Errorf("the mutation was not reported as %q; the checker said:\n%s", tc.want, strings.Join(rep.violations, "\n"))
			}
		})
	}
}

// TestRoomTableRules checks the table parser's own rules on small tables.
func TestRoomTableRules(t *testing.T) {
	t.Parallel()
	head := "## Rooms\n\n| Room | Files | Owns | May use |\n|---|---|---|---|\n"
	for _, tc := range []struct{ table, err string }{
		{"| A | `a*.go` | x | B |\n| B | `b*.go` | y | nothing |\n", ""},
		{"| A | `a*.go` | x | nothing |\n| B | `b*.go` | y | A |\n", "which is listed above it"},
		{"| A | `a*.go` | x | C |\n", "which is no room"},
		{"| A | x | y | nothing |\n", "lists no files"},
		{"| A | `a.go` | y |\n", "4 columns"},
	} {
		_, err := parseRoomTable(head + tc.table)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.table, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one saying %q", tc.table, err, tc.err)
		}
	}
}

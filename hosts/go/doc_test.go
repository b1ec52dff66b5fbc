package qrglue

// The API reference (`just docs` writes `go doc -all` into target/docs/go/) is the packages' own
// comments, so an exported name without one is a hole in it: this test lists every such name.
// go/doc is what `go doc` and pkg.go.dev read, so "documented" means what they show.

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The packages whose exported API is public: this one and the three engine modules beside it.
var documentedDirs = []string{".", "wasmtime", "extism", "wasmer"}

func TestEveryExportedNameIsDocumented(t *testing.T) {
	for _, dir := range documentedDirs {
		for _, missing := range undocumented(t, dir) {
			t.Errorf("%s: %s has no doc comment (go doc shows it bare; add a // comment above it)", dir, missing)
		}
	}
}

// undocumented lists the exported names in dir's non-test files that have no doc comment: the
// package clause, funcs, types, methods, consts and vars (a group's comment covers its names), and
// struct fields (their own comment, or the type's comment naming them as a word).
func undocumented(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	notTest := func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
	pkgs, err := parser.ParseDir(fset, dir, notTest, parser.ParseComments)
	if err != nil {
		t.Fatalf("parse %s: %v", dir, err)
	}
	var missing []string
	for _, pkg := range pkgs {
		files := make([]*ast.File, 0, len(pkg.Files))
		for _, f := range pkg.Files {
			files = append(files, f)
		}
		// Both build variants' files (native.go and native_stub.go) are parsed: each must be documented.
		p, err := doc.NewFromFiles(fset, files, "qrglue.dev/qrglue/"+dir)
		if err != nil {
			t.Fatalf("go/doc %s: %v", dir, err)
		}
		if strings.TrimSpace(p.Doc) == "" {
			missing = append(missing, "package "+p.Name)
		}
		values := func(kind string, vs []*doc.Value) {
			for _, v := range vs {
				for _, spec := range v.Decl.Specs {
					s := spec.(*ast.ValueSpec)
					for _, n := range s.Names {
						if n.IsExported() && v.Doc == "" && s.Doc == nil && s.Comment == nil {
							missing = append(missing, kind+" "+n.Name)
						}
					}
				}
			}
		}
		funcs := func(prefix string, fs []*doc.Func) {
			for _, f := range fs {
				if strings.TrimSpace(f.Doc) == "" {
					missing = append(missing, "func "+prefix+f.Name)
				}
			}
		}
		values("const", p.Consts)
		values("var", p.Vars)
		funcs("", p.Funcs)
		for _, typ := range p.Types {
			if strings.TrimSpace(typ.Doc) == "" {
				missing = append(missing, "type "+typ.Name)
			}
			values("const", typ.Consts)
			values("var", typ.Vars)
			funcs("", typ.Funcs)
			funcs(typ.Name+".", typ.Methods)
			for _, spec := range typ.Decl.Specs {
				st, ok := spec.(*ast.TypeSpec).Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					for _, n := range field.Names {
						named := regexp.MustCompile(`\b` + n.Name + `\b`).MatchString(typ.Doc)
						if n.IsExported() && field.Doc == nil && field.Comment == nil && !named {
							missing = append(missing, "field "+typ.Name+"."+n.Name)
						}
					}
				}
			}
		}
	}
	return missing
}

// The check must be able to fail: a file with each kind of bare exported name is caught, name by name.
func TestUndocumentedNamesAreCaught(t *testing.T) {
	dir := t.TempDir()
	src := `package bare

type T struct{ Field int }

func F() {}

func (T) M() {}

const C = 1

var V = 2
`
	if err := os.WriteFile(dir+"/bare.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(undocumented(t, dir), "; ")
	want := "package bare; const C; var V; func F; type T; func T.M; field T.Field"
	if got != want {
		t.Fatalf("undocumented = %q, want %q", got, want)
	}
}

package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDataHeavyTestsAreRun: every test that calls apptest.DataHeavy (skipped under -race) is in the
// Makefile's NORACE_TESTS, which make test-go runs without -race — else it would never run.
func TestDataHeavyTestsAreRun(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^NORACE_TESTS := \^\((.*)\)\$\$$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no NORACE_TESTS := ^(…)$$ line in the Makefile")
	}
	listed := map[string]bool{}
	for _, n := range strings.Split(string(m[1]), "|") {
		listed[n] = true
	}
	files, _ := filepath.Glob("*_test.go")
	fset := token.NewFileSet()
	var heavy int
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "DataHeavy" {
					heavy++
					if !listed[fn.Name.Name] {
						t.Errorf("%s (%s) calls apptest.DataHeavy but is not in the Makefile's NORACE_TESTS: it would never run", fn.Name.Name, f)
					}
				}
				return true
			})
		}
	}
	if heavy == 0 {
		t.Error("no test calls apptest.DataHeavy: this check no longer looks at the right files")
	}
}

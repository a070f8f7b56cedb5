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

// TestDataHeavyTestsAreRun: every test that calls dbtest.DataHeavy (skipped under -race), in any
// package, is in the Makefile's NORACE_TESTS and its package in NORACE_PKGS, which make test-go runs
// without -race — else it would never run.
func TestDataHeavyTestsAreRun(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^NORACE_TESTS := \^\((.*)\)\$\$$`).FindSubmatch(mk)
	p := regexp.MustCompile(`(?m)^NORACE_PKGS := (.*)$`).FindSubmatch(mk)
	if m == nil || p == nil {
		t.Fatal("no NORACE_TESTS := ^(…)$$ or NORACE_PKGS := … line in the Makefile")
	}
	listed, pkgs := map[string]bool{}, map[string]bool{}
	for _, n := range strings.Split(string(m[1]), "|") {
		listed[n] = true
	}
	for _, d := range strings.Fields(string(p[1])) {
		pkgs[strings.TrimPrefix(d, "./")] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var heavy int
	err = filepath.WalkDir(filepath.Join(root, "internal"), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "DataHeavy" {
					heavy++
					if !listed[fn.Name.Name] {
						t.Errorf("%s (%s) calls dbtest.DataHeavy but is not in the Makefile's NORACE_TESTS: it would never run", fn.Name.Name, path)
					}
					if !pkgs[filepath.ToSlash(rel)] {
						t.Errorf("%s (%s) calls dbtest.DataHeavy but ./%s is not in the Makefile's NORACE_PKGS: it would never run", fn.Name.Name, path, rel)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if heavy == 0 {
		t.Error("no test calls dbtest.DataHeavy: this check no longer looks at the right files")
	}
}

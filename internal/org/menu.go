package org

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed menu.json
var menuJSON []byte

// MenuNode is a module (code NN), a page (NN-NN) or a button (page code + "-NN", longer than 5
// characters, named page-action).
type MenuNode struct {
	Name      string      `json:"name"`
	Title     string      `json:"title"`
	Code      string      `json:"code"`
	Path      string      `json:"path"`
	Icon      string      `json:"icon,omitempty"`
	AllScreen bool        `json:"allScreen"`
	Href      string      `json:"href,omitempty"`
	Redirect  string      `json:"redirect,omitempty"`
	Children  []*MenuNode `json:"children"`
}

// IsButton reports whether code is a button permission (longer than 5 characters).
func IsButton(code string) bool { return len(code) > 5 }

var (
	menuTree  []*MenuNode
	menuCodes []string
	menuIndex map[string]*MenuNode
	// menuParent maps a page or button code to its parent's code.
	menuParent map[string]string
)

func init() {
	tree, err := ParseMenu(menuJSON)
	if err != nil {
		panic("org: menu.json: " + err.Error())
	}
	menuTree = tree
	menuIndex = map[string]*MenuNode{}
	menuParent = map[string]string{}
	var walk func(parent string, ns []*MenuNode)
	walk = func(parent string, ns []*MenuNode) {
		for _, n := range ns {
			menuCodes = append(menuCodes, n.Code)
			menuIndex[n.Code] = n
			if parent != "" {
				menuParent[n.Code] = parent
			}
			walk(n.Code, n.Children)
		}
	}
	walk("", tree)
}

// ParseMenu decodes and checks a menu tree: codes unique, modules NN, pages NN-NN under their module
// (at most 5 characters), buttons longer than 5 characters under their page, named page-action.
func ParseMenu(b []byte) ([]*MenuNode, error) {
	var tree []*MenuNode
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	names := map[string]bool{}
	check := func(n *MenuNode) error {
		if n.Code == "" || n.Name == "" {
			return fmt.Errorf("node %q/%q lacks a code or name", n.Name, n.Code)
		}
		if seen[n.Code] {
			return fmt.Errorf("duplicate code %s", n.Code)
		}
		if names[n.Name] {
			return fmt.Errorf("duplicate name %s", n.Name)
		}
		seen[n.Code], names[n.Name] = true, true
		return nil
	}
	for _, m := range tree {
		if err := check(m); err != nil {
			return nil, err
		}
		if len(m.Code) != 2 {
			return nil, fmt.Errorf("module %s: code must be NN", m.Code)
		}
		for _, p := range m.Children {
			if err := check(p); err != nil {
				return nil, err
			}
			if len(p.Code) != 5 || !strings.HasPrefix(p.Code, m.Code+"-") {
				return nil, fmt.Errorf("page %s: code must be %s-NN (at most 5 characters)", p.Code, m.Code)
			}
			for _, b := range p.Children {
				if err := check(b); err != nil {
					return nil, err
				}
				if !IsButton(b.Code) || !strings.HasPrefix(b.Code, p.Code+"-") {
					return nil, fmt.Errorf("button %s: code must be %s-NN", b.Code, p.Code)
				}
				if !strings.HasPrefix(b.Name, p.Name+"-") {
					return nil, fmt.Errorf("button %s: name must be %s-action", b.Name, p.Name)
				}
				if len(b.Children) > 0 {
					return nil, fmt.Errorf("button %s has children", b.Code)
				}
			}
		}
	}
	return tree, nil
}

// AllCodes lists every menu and button code.
func AllCodes() []string { return append([]string(nil), menuCodes...) }

// IsCode reports whether code exists in the menu.
func IsCode(code string) bool { _, ok := menuIndex[code]; return ok }

// Menu returns a copy of the whole tree.
func Menu() []*MenuNode { return FilterMenu(menuTree, nil) }

// FilterMenu returns a copy of tree keeping what granted allows (nil granted keeps everything):
// a page only if its code is granted, a button only if granted (as a child of its kept page), a module
// if it or any of its pages is granted. Never nil.
func FilterMenu(tree []*MenuNode, granted map[string]bool) []*MenuNode {
	ok := func(code string) bool { return granted == nil || granted[code] }
	out := []*MenuNode{}
	for _, m := range tree {
		mc := *m
		mc.Children = []*MenuNode{}
		for _, p := range m.Children {
			if !ok(p.Code) {
				continue
			}
			pc := *p
			pc.Children = []*MenuNode{}
			for _, b := range p.Children {
				if ok(b.Code) {
					bc := *b
					bc.Children = []*MenuNode{}
					pc.Children = append(pc.Children, &bc)
				}
			}
			mc.Children = append(mc.Children, &pc)
		}
		if ok(m.Code) || len(mc.Children) > 0 {
			out = append(out, &mc)
		}
	}
	return out
}

// EffectiveCodes adds to codes the module of every granted page, and the page of every granted
// button, so a role holding a page also "holds" its module for menus and granting.
func EffectiveCodes(codes []string) map[string]bool {
	m := make(map[string]bool, len(codes)+8)
	for _, c := range codes {
		if !IsCode(c) {
			continue
		}
		m[c] = true
		for p := menuParent[c]; p != ""; p = menuParent[p] {
			m[p] = true
		}
	}
	return m
}

// SubtreeCodes returns code and every code below it.
func SubtreeCodes(code string) []string {
	n := menuIndex[code]
	if n == nil {
		return nil
	}
	out := []string{n.Code}
	for _, c := range n.Children {
		out = append(out, SubtreeCodes(c.Code)...)
	}
	return out
}

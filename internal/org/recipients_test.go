package org_test

import (
	"context"
	"fmt"
	"testing"

	"tankwatch/internal/app/apptest"
)

// Recipients decides who receives live pushes about a group's record: users whose scope holds it,
// optionally narrowed to holders of a permission code.
func TestRecipients(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		ids := map[string]int64{}
		for _, name := range []string{"admin", "dispatcher", "customer"} {
			var page struct {
				List []struct {
					ID   int64  `json:"id"`
					Name string `json:"name"`
				} `json:"list"`
			}
			e.MustOK("POST", "/authority-app/userInfo/page", admin, map[string]any{"pageNum": 1, "pageSize": 10, "name": name}).Decode(&page)
			for _, u := range page.List {
				if u.Name == name {
					ids[name] = u.ID
				}
			}
		}
		path := func(group string) string {
			p, err := e.App.Org.GroupPath(ctx, g[group])
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		check := func(group string, codes []string, want ...string) {
			t.Helper()
			got, err := e.App.Org.Recipients(ctx, path(group), codes...)
			if err != nil {
				t.Fatal(err)
			}
			var wantIDs []int64
			for _, n := range want {
				wantIDs = append(wantIDs, ids[n])
			}
			if fmt.Sprint(got) != fmt.Sprint(wantIDs) {
				t.Fatalf("Recipients(%s, %v) = %v, want %v (%v)", group, codes, got, wantIDs, want)
			}
		}
		check("华东分公司", nil, "admin", "dispatcher", "customer")
		check("华北分公司", nil, "admin", "dispatcher")
		check("中油运输集团", nil, "admin", "dispatcher")
		check("华东分公司", []string{"02-05"}, "admin", "dispatcher") // the customer holds no alarm pages
		check("华东分公司", []string{"06-01"}, "admin")
		check("华东分公司", []string{"02"}, "admin", "dispatcher")                         // a module: held through any page below it
		check("华东分公司", []string{"06-01", "04-01"}, "admin", "dispatcher", "customer") // any of the codes
		check("华东分公司", []string{"99-99"})                                             // no such code: nobody
	})
}

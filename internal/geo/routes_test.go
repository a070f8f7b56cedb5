package geo_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/geo"
	"tankwatch/internal/platform/httpx"
)

// The routes run behind the real guard of a demo instance: the app does not mount them yet (the
// integrator wires the package), so they are mounted here with the instance's token check.
func TestRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		path := func(name string) string {
			var p string
			if err := e.DB.NewSelect().Table("org_groups").Column("path").Where("name = ?", name).Scan(t.Context(), &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		east, north := path("华东分公司"), path("华北分公司")
		s := geo.New(geo.Config{}, func() []geo.Place {
			// the customer is a user of 华东分公司: its depot is named; a sibling subsidiary's (华北) and
			// another company's depots, nearer the point, never are
			return []geo.Place{{Name: "中石化石家庄油库", Kind: "depot", Lat: 38.03, Lon: 114.53, GroupPath: east},
				{Name: "华北分公司油库", Kind: "depot", Lat: 38.0400, Lon: 114.5410, GroupPath: north},
				{Name: "别家公司油库", Kind: "depot", Lat: 38.0401, Lon: 114.5411, GroupPath: "/99/"}}
		})
		mux := http.NewServeMux()
		httpx.Mount(mux, e.App.Auth.Guard, s.Routes())
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		token := e.Login("customer", "customer123")

		get := func(path, token, lang string) (int, httpx.Envelope) {
			t.Helper()
			req, _ := http.NewRequest("GET", srv.URL+path, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			if lang != "" {
				req.Header.Set("Accept-Language", lang)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			var env httpx.Envelope
			_ = json.Unmarshal(b, &env)
			return res.StatusCode, env
		}
		for _, rt := range s.Routes() {
			if rt.Access.Kind != httpx.Authenticated || rt.Scoped {
				t.Errorf("%s: access %s scoped %v", rt.Path, rt.Access, rt.Scoped)
			}
			if st, _ := get(rt.Path+"?lng=114.54&lat=38.04", "", ""); st != http.StatusUnauthorized {
				t.Errorf("%s without a token: HTTP %d", rt.Path, st)
			}
			if st, _ := get(rt.Path+"?lng=114.54&lat=38.04", "not-a-token", ""); st != http.StatusUnauthorized {
				t.Errorf("%s with a bad token: HTTP %d", rt.Path, st)
			}
			st, env := get(rt.Path+"?lng=114.5410&lat=38.0400", token, "")
			if st != 200 || env.Code != 1 || env.Data != "河北省石家庄市长安区附近，距中石化石家庄油库 1.5 公里（东北方向）" {
				t.Errorf("%s zh-CN: %d %+v", rt.Path, st, env)
			}
			_, env = get(rt.Path+"?lng=114.5410&lat=38.0400", token, "en-US,en;q=0.9")
			if env.Data != "Chang'an District, Shijiazhuang, Hebei; 1.5 km north-east of 中石化石家庄油库" {
				t.Errorf("%s en-US: %+v", rt.Path, env)
			}
			_, env = get(rt.Path+"?lng=114.5410&lat=38.0400", token, "zh-TW")
			if env.Data != "河北省石家莊市長安區附近，距中石化石家莊油庫 1.5 公里（東北方向）" {
				t.Errorf("%s zh-TW: %+v", rt.Path, env)
			}
			for _, q := range []string{"", "?lng=114.54", "?lat=38.04", "?lng=&lat=38.04", "?lng=0&lat=38.04", "?lng=114.54&lat=0.0",
				"?lng=abc&lat=38.04", "?lng=NaN&lat=38.04", "?lng=190&lat=38.04", "?lng=114.54&lat=-91"} {
				st, env := get(rt.Path+q, token, "")
				if st != 200 || env.Code != 1 || env.Data != "" {
					t.Errorf("%s%s: %d %+v, want code 1 with data \"\"", rt.Path, q, st, env)
				}
			}
		}
	})
}

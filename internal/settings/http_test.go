package settings_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/codes"
	"tankwatch/internal/settings/sessions"
	"tankwatch/internal/settings/system"
	"tankwatch/internal/settings/tiles"
	"tankwatch/internal/telemetry"
)

// eastAdmin creates an administrator of 华东分公司 holding every code (a subsidiary's admin) and signs in.
func eastAdmin(t *testing.T, e *apptest.Env, admin string) string {
	t.Helper()
	east := e.Groups(admin)["华东分公司"]
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东管理员", "groupId": east, "resourceCodes": org.AllCodes()}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastadmin", "password": "secret1", "groupId": east, "roleIds": []int64{role}})
	return e.Login("eastadmin", "secret1")
}

func TestCodeLists(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		var items []codes.Item
		e.MustOK("GET", "/base-info-app/baseType/items?type=stationType", admin, nil).Decode(&items)
		if len(items) != 8 || items[0].Code != "yk" || items[0].LabelEn != "Oil depot" {
			t.Fatalf("station types seeded from today's constants: %+v", items)
		}
		// an added type is accepted by the station form at once
		added := e.MustOK("POST", "/base-info-app/baseType/add", admin, map[string]any{"type": "stationType", "code": "lng", "labelZh": "LNG站", "labelEn": "LNG station", "sort": 90}).ID()
		if r := e.Call("POST", "/base-info-app/baseType/add", admin, map[string]any{"type": "stationType", "code": "lng", "labelZh": "重复"}); r.Code != 0 || !strings.Contains(r.Message, "已存在") {
			t.Fatalf("duplicate code: %+v", r)
		}
		st := e.MustOK("POST", "/base-info-app/station/add", admin, map[string]any{"stationName": "临港LNG站", "stationType": "lng", "fenceType": 2, "fenceCenter": "121.9,30.9", "raduis": 300}).ID()
		if r := e.Call("POST", "/base-info-app/station/add", admin, map[string]any{"stationName": "无类型站", "stationType": "nope", "fenceType": 2, "fenceCenter": "121.9,30.9", "raduis": 300}); r.Code != 0 {
			t.Fatalf("unknown station type accepted: %+v", r)
		}
		// in use: refused with the advice to disable
		if r := e.Call("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": added}); r.Code != 0 || !strings.Contains(r.Message, "停用") {
			t.Fatalf("delete of an item in use: %+v", r)
		}
		e.MustOK("POST", "/base-info-app/baseType/edit", admin, map[string]any{"id": added, "labelZh": "LNG加气站", "labelEn": "LNG station", "sort": 5, "enabled": false})
		e.MustOK("GET", "/base-info-app/baseType/items?type=stationType", admin, nil).Decode(&items)
		if items[0].Code != "lng" || items[0].LabelZh != "LNG加气站" || items[0].Enabled {
			t.Fatalf("edit not applied at once: %+v", items[0])
		}
		e.MustOK("POST", "/base-info-app/station/delete", admin, map[string]any{"id": st})
		e.MustOK("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": added})
		// built-in: never deleted
		if r := e.Call("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": items[1].ID}); r.Code != 0 || !strings.Contains(r.Message, "内置") {
			t.Fatalf("built-in delete: %+v", r)
		}
		var page httpx.Page[codes.Item]
		e.MustOK("POST", "/base-info-app/baseType/page", admin, map[string]any{"type": "faultType", "keyword": "锁", "pageSize": 10}).Decode(&page)
		if page.Total != 1 || page.List[0].Code != "lock" {
			t.Fatalf("keyword filter: %+v", page)
		}
		// platform-wide: a subsidiary's administrator holding the codes gets 403 and changes nothing
		east := eastAdmin(t, e, admin)
		for _, c := range []struct {
			path string
			body any
		}{
			{"add", map[string]any{"type": "faultType", "code": "x1", "labelZh": "某故障"}},
			{"edit", map[string]any{"id": page.List[0].ID, "labelZh": "改了"}},
			{"delete", map[string]any{"id": page.List[0].ID}},
		} {
			if r := e.Call("POST", "/base-info-app/baseType/"+c.path, east, c.body); r.Status != http.StatusForbidden {
				t.Errorf("subsidiary admin %s: %d %s", c.path, r.Status, r.Body)
			}
		}
		e.MustOK("POST", "/base-info-app/baseType/page", admin, map[string]any{"type": "faultType", "keyword": "锁"}).Decode(&page)
		if page.List[0].LabelZh != "电子锁故障" {
			t.Fatal("a refused edit changed the item")
		}
		if n, err := e.App.SettingsCodes().Items(t.Context(), "faultType"); err != nil || len(n) != 7 {
			t.Fatalf("Go API: %d %v", len(n), err)
		}
		var logs httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "baseType"}).Decode(&logs)
		if logs.Total < 3 {
			t.Fatalf("operation log: %d rows", logs.Total)
		}
	})
}

func TestSystemSettingsApplyWithoutRestart(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		defer httpx.SetZone(nil)
		admin := e.Login("admin", "admin123")
		var counts map[string]int
		e.MustOK("GET", "/monitor-app/realTimeMoitoring/carCount", admin, nil).Decode(&counts)
		var d system.Detail
		e.MustOK("GET", "/base-info-app/system/detail", admin, nil).Decode(&d)
		if d.OfflineMinutes != 10 || d.TimeZone != "Asia/Shanghai" || d.MapProvider != "gaode" {
			t.Fatalf("defaults: %+v", d)
		}
		// a key is a secret: stored, shown masked, never sent back whole
		e.MustOK("POST", "/base-info-app/system/edit", admin, map[string]any{"amapKey": "0123456789abcdef0123456789abcdef"})
		r := e.MustOK("GET", "/base-info-app/system/detail", admin, nil)
		if bytes.Contains(r.Body, []byte("0123456789abcdef0123456789abcdef")) || !bytes.Contains(r.Body, []byte(`"amapKeySet":true`)) {
			t.Fatalf("key leaked or not set: %s", r.Body)
		}
		pub := e.MustOK("GET", "/base-info-app/system/public", admin, nil)
		if bytes.Contains(pub.Body, []byte("0123456789")) {
			t.Fatal("public view has the key")
		}

		// a subsidiary's administrator holding 06-11-01: 403, nothing changes
		east := eastAdmin(t, e, admin)
		if r := e.Call("POST", "/base-info-app/system/edit", east, map[string]any{"offlineMinutes": 1}); r.Status != http.StatusForbidden {
			t.Fatalf("subsidiary edit: %d %s", r.Status, r.Body)
		}
		// validation names the field; nothing changes
		if r := e.Call("POST", "/base-info-app/system/edit", admin, map[string]any{"offlineMinutes": 0}); r.Code != 0 || !strings.Contains(r.Message, "1") {
			t.Fatalf("range: %+v", r)
		}
		if r := e.Call("POST", "/base-info-app/system/edit", admin, map[string]any{"timeZone": "Mars/Base"}); r.Code != 0 {
			t.Fatalf("zone: %+v", r)
		}
		if r := e.Call("POST", "/base-info-app/system/edit", admin, `{"offlineMinutes":"ten"}`); r.Code != 0 {
			t.Fatalf("wrong type: %+v", r)
		}

		// offline threshold: demo car 0 reports, then the clock moves 30 minutes: offline at 10
		// minutes, online again as soon as the threshold is 600 minutes
		term := e.DemoTerminal(admin)
		// demo cars have their own offline minutes, which win over the platform's: clear car 0's
		if _, err := e.DB.NewUpdate().Table("cars").Set("offline_minutes = 0").Where("id = ?", *term.CarID).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := e.App.Devices.Live.Load(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.App.Devices.Live.Apply([]telemetry.Report{{TerminalID: term.ID, CarID: *term.CarID, Received: e.Clock.Now(), Time: e.Clock.Now(),
			Lat: 31_230_000, Lon: 121_470_000}})
		e.MustOK("GET", "/monitor-app/realTimeMoitoring/carCount", admin, nil).Decode(&counts)
		online := counts["8"] - counts["7"]
		e.Clock.Advance(30 * time.Minute)
		e.MustOK("GET", "/monitor-app/realTimeMoitoring/carCount", admin, nil).Decode(&counts)
		if counts["8"]-counts["7"] != online-1 {
			t.Fatalf("car 0 not offline after 30 min: %v (online before %d)", counts, online)
		}
		e.MustOK("POST", "/base-info-app/system/edit", admin, map[string]any{"offlineMinutes": 600, "parkingMinutes": 45, "timeZone": "Asia/Tokyo"})
		e.MustOK("GET", "/monitor-app/realTimeMoitoring/carCount", admin, nil).Decode(&counts)
		if counts["8"]-counts["7"] != online {
			t.Fatalf("offline count did not follow the new threshold: %v", counts)
		}
		if e.App.Alarms.Service.DefaultParking() != 45 {
			t.Fatal("parking minutes not applied")
		}
		if httpx.Zone().String() != "Asia/Tokyo" {
			t.Fatalf("zone not applied: %v", httpx.Zone())
		}
		var info map[string]any
		e.MustOK("GET", "/authority-app/platformInfo", "", nil).Decode(&info)
		if info["timeZone"] != "Asia/Tokyo" {
			t.Fatalf("platformInfo: %v", info)
		}
		var logs httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "platformSettings"}).Decode(&logs)
		found := false
		for _, l := range logs.List {
			if d, _ := l["detailText"].(string); d == "10 → 600" {
				found = true
			}
			if d, _ := l["detailText"].(string); strings.Contains(d, "0123456789abcdef0123456789abcdef") {
				t.Fatal("the key in the operation log")
			}
		}
		if !found {
			t.Fatalf("old → new not logged: %+v", logs.List)
		}
	})
}

func TestOfflineTiles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		file := filepath.Join(t.TempDir(), "sample.mbtiles")
		if err := tiles.WriteSample(t.Context(), file, 2); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(file)
		const uploadTiles = "/base-info-app/system/uploadTiles"
		if r := e.Upload(uploadTiles, admin, nil, "not.mbtiles", []byte("hello")); r.Status != 200 || r.Code != 0 {
			t.Fatalf("garbage accepted: %d %s", r.Status, r.Body)
		}
		east := eastAdmin(t, e, admin)
		if r := e.Upload(uploadTiles, east, nil, "city.mbtiles", data); r.Status != http.StatusForbidden {
			t.Fatalf("subsidiary upload: %d", r.Status)
		}
		if r := e.Upload(uploadTiles, admin, nil, "city.mbtiles", data); r.Status != 200 {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		if r := e.Call("GET", "/tiles/1/0/0", admin, nil); r.Status != http.StatusNotFound {
			t.Fatalf("no source yet: %d", r.Status)
		}
		e.MustOK("POST", "/base-info-app/system/edit", admin, map[string]any{"mapProvider": "offline", "offlineTiles": "city.mbtiles"})
		if r := e.Call("GET", "/tiles/1/0/0", "", nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("tiles without a token: %d", r.Status)
		}
		r := e.Call("GET", "/tiles/1/0/0", admin, nil)
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("ETag") == "" || !strings.Contains(r.Header.Get("Cache-Control"), "max-age") {
			t.Fatalf("tile: %d %v", r.Status, r.Header)
		}
		// y is flipped: XYZ row 0 at zoom 1 is TMS row 1, which the sample stored with y=0's colour
		src, err := tiles.Open(t.Context(), file)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		want, _ := src.Tile(t.Context(), 1, 0, 0)
		if !bytes.Equal(want, r.Body) {
			t.Fatal("served tile is not the file's XYZ tile")
		}
		for _, p := range []string{"/tiles/3/0/0", "/tiles/1/2/0", "/tiles/x/0/0"} {
			if r := e.Call("GET", p, admin, nil); r.Status != http.StatusNotFound {
				t.Errorf("%s: %d", p, r.Status)
			}
		}
		var pub system.Public
		e.MustOK("GET", "/base-info-app/system/public", admin, nil).Decode(&pub)
		if pub.MapProvider != "offline" || pub.Tiles == nil || pub.Tiles.MaxZoom != 2 {
			t.Fatalf("public: %+v", pub)
		}
		csp := e.Call("GET", "/healthz", "", nil).Header.Get("Content-Security-Policy")
		if strings.Contains(csp, "autonavi") {
			t.Fatalf("CSP still allows the online provider: %s", csp)
		}
		e.MustOK("POST", "/base-info-app/system/edit", admin, map[string]any{"mapProvider": "osm"})
		if csp := e.Call("GET", "/healthz", "", nil).Header.Get("Content-Security-Policy"); !strings.Contains(csp, "tile.openstreetmap.org") {
			t.Fatalf("CSP does not follow the provider: %s", csp)
		}
	})
}

func TestSessionsAndSignOut(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		disp := e.Login("dispatcher", "dispatch123")
		cust := e.Login("customer", "customer123")
		var page httpx.Page[sessions.Session]
		e.MustOK("GET", "/authority-app/userInfo/listCurrentRecords?pageSize=50", admin, nil).Decode(&page)
		if page.Total < 3 {
			t.Fatalf("admin sees %d sessions", page.Total)
		}
		var dispID string
		for _, s := range page.List {
			if s.UserName == "dispatcher" {
				dispID = s.ID
			}
			if s.UserName == "admin" && !s.Current {
				t.Error("own session not marked")
			}
		}
		var own httpx.Page[sessions.Session]
		e.MustOK("GET", "/authority-app/userInfo/listCurrentRecords", cust, nil).Decode(&own)
		if own.Total != 1 || own.List[0].UserName != "customer" {
			t.Fatalf("a plain user sees others: %+v", own)
		}
		// the customer cannot sign the dispatcher out
		if r := e.Call("POST", "/authority-app/userInfo/signOutSession", cust, map[string]any{"id": dispID}); r.Status != http.StatusForbidden {
			t.Fatalf("customer signs out another: %d", r.Status)
		}
		// a subsidiary admin cannot reach the platform's sessions
		east := eastAdmin(t, e, admin)
		if r := e.Call("POST", "/authority-app/userInfo/signOutSession", east, map[string]any{"id": dispID}); r.Status != http.StatusForbidden {
			t.Fatalf("subsidiary signs out a platform user: %d", r.Status)
		}
		e.MustOK("GET", "/base-info-app/system/public", disp, nil)
		e.MustOK("POST", "/authority-app/userInfo/signOutSession", admin, map[string]any{"id": dispID})
		if r := e.Call("GET", "/base-info-app/system/public", disp, nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("revoked token: %d", r.Status)
		}
		if r := e.Call("POST", "/authority-app/userInfo/signOutSession", admin, map[string]any{"id": "short"}); r.Code != 0 {
			t.Fatalf("bad id: %+v", r)
		}
	})
}

func TestPreferencesFollowTheUser(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		tok := e.Login("dispatcher", "dispatch123")
		e.MustOK("POST", "/base-info-app/userSetting/edit", tok, map[string]any{"language": "en-US", "prefs": map[string]any{"theme": "dark", "mapLayer": "satellite", "pageSize": 50}})
		if r := e.Call("POST", "/base-info-app/userSetting/edit", tok, map[string]any{"prefs": map[string]any{"pageSize": 7}}); r.Code != 0 {
			t.Fatalf("bad page size: %+v", r)
		}
		r := e.Call("POST", "/authority-app/logIn", "", map[string]any{"account": "dispatcher", "password": "dispatch123", "type": 0})
		var sess org.Session
		r.Decode(&sess)
		if sess.Language != "en-US" || sess.Prefs != (org.Prefs{Theme: "dark", MapLayer: "satellite", PageSize: 50}) {
			t.Fatalf("login does not carry the preferences: %+v", sess)
		}
	})
}

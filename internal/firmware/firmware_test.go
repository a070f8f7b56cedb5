package firmware_test

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/firmware"
	"tankwatch/internal/fleet"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
)

// upload posts a package form (fields, then the file when data is not nil).
func upload(t *testing.T, e *apptest.Env, token string, fields map[string]string, data []byte) *apptest.Resp {
	t.Helper()
	return e.Upload("/base-info-app/upgradePack/upload", token, fields, "fw.bin", data)
}

func fields(kind, manu, ver string) map[string]string {
	return map[string]string{"kind": kind, "manufacturer": manu, "version": ver, "remark": "测试"}
}

// eastAdmin is an administrator of a subsidiary holding every code.
func eastAdmin(t *testing.T, e *apptest.Env, admin string) string {
	g := e.Groups(admin)
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东管理员", "groupId": g["华东分公司"], "resourceCodes": org.AllCodes()}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastadmin", "password": "secret1", "groupId": g["华东分公司"], "roleIds": []int64{role}})
	return e.Login("eastadmin", "secret1")
}

func TestPackages(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		data := bytes.Repeat([]byte("tankwatch firmware "), 700)
		r := upload(t, e, admin, fields("0", "70111", "T-1.0"), data)
		if r.Success != 1 {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		var v firmware.PackageView
		r.Decode(&v)
		sh, m5 := sha256.Sum256(data), md5.Sum(data)
		if v.Size != int64(len(data)) || v.SHA256 != hex.EncodeToString(sh[:]) || v.MD5 != hex.EncodeToString(m5[:]) || v.FileName != "fw.bin" {
			t.Fatalf("package %+v", v)
		}
		// the same type, manufacturer and version again is refused; another type is not
		if r := upload(t, e, admin, fields("0", "70111", "T-1.0"), []byte("x")); r.Success != 0 || !strings.Contains(r.Message, "已存在") {
			t.Fatalf("duplicate: %s", r.Body)
		}
		if r := upload(t, e, admin, fields("12", "70111", "T-1.0"), []byte("x")); r.Success != 1 {
			t.Fatalf("another type: %s", r.Body)
		}
		for name, c := range map[string]struct {
			f    map[string]string
			data []byte
			want string
		}{
			"no file":           {fields("0", "70111", "T-2"), nil, "请选择升级包文件"},
			"empty file":        {fields("0", "70111", "T-2"), []byte{}, "请选择升级包文件"},
			"bad kind":          {fields("7", "70111", "T-2"), []byte("x"), "升级类型"},
			"kind not a number": {fields("x", "70111", "T-2"), []byte("x"), "升级类型"},
			"long manufacturer": {fields("0", "701112", "T-2"), []byte("x"), "厂商编号"},
			"no version":        {fields("0", "70111", " "), []byte("x"), "版本号"},
			"long version":      {fields("0", "70111", strings.Repeat("v", 65)), []byte("x"), "版本号"},
			"control character": {fields("0", "70111", "T\x01"), []byte("x"), "版本号"},
		} {
			if r := upload(t, e, admin, c.f, c.data); r.Success != 0 || !strings.Contains(r.Message, c.want) {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
			}
		}
		if r := e.Do("POST", "/base-info-app/upgradePack/upload", admin, "application/json", strings.NewReader("{}")); r.Success != 0 {
			t.Errorf("not a form: %s", r.Body)
		}
		// oversize: refused while streaming, nothing kept
		big := make([]byte, firmware.MaxPackage+1)
		if r := upload(t, e, admin, fields("0", "70111", "T-big"), big); r.Success != 0 || !strings.Contains(r.Message, "32 MB") {
			t.Fatalf("oversize: %d %s", r.Status, r.Body)
		}
		var page httpx.Page[firmware.PackageView]
		e.MustOK("POST", "/base-info-app/upgradePack/page", admin, map[string]any{"kind": 0, "manufacturer": "701", "sortField": "version", "sortOrder": "ascend"}).Decode(&page)
		versions := []string{}
		for _, p := range page.List {
			versions = append(versions, p.Version)
		}
		if strings.Join(versions, ",") != "T-1.0,TW-808T 2.1.0" {
			t.Fatalf("terminal packages: %v", versions)
		}
		// a subsidiary's administrator holding the codes may not add or delete platform packages
		east := eastAdmin(t, e, admin)
		if r := upload(t, e, east, fields("0", "70111", "T-3"), []byte("x")); r.Status != http.StatusForbidden {
			t.Fatalf("subsidiary upload: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/base-info-app/upgradePack/delete", east, map[string]any{"id": v.ID}); r.Status != http.StatusForbidden {
			t.Fatalf("subsidiary delete: %d %s", r.Status, r.Body)
		}
		e.MustOK("POST", "/base-info-app/upgradePack/page", east, map[string]any{}) // but sees them
		// a package being pushed cannot be deleted
		car := e.DemoTerminal(admin)
		e.MustOK("POST", "/base-info-app/upgradePack/push", admin, map[string]any{"packageId": v.ID, "carIds": []int64{*car.CarID}})
		if r := e.Call("POST", "/base-info-app/upgradePack/delete", admin, map[string]any{"id": v.ID}); r.Success != 0 || !strings.Contains(r.Message, "正在升级") {
			t.Fatalf("delete while pushing: %s", r.Body)
		}
		var other httpx.Page[firmware.PackageView]
		e.MustOK("POST", "/base-info-app/upgradePack/page", admin, map[string]any{"kind": 12}).Decode(&other)
		e.MustOK("POST", "/base-info-app/upgradePack/delete", admin, map[string]any{"id": other.List[0].ID})
		var n int
		if err := e.DB.NewRaw("SELECT COUNT(*) FROM firmware_packages WHERE kind = 12 AND version = 'T-1.0'").Scan(t.Context(), &n); err != nil || n != 0 {
			t.Fatalf("deleted package still there: %d %v", n, err)
		}
		// the bytes are in the store (D136) and go with the last package that has them
		x := sha256.Sum256([]byte("x"))
		if c := chunks(t, e, hex.EncodeToString(x[:])); c != 0 {
			t.Fatalf("a deleted package's bytes are still in the store: %d chunks", c)
		}
		if c := chunks(t, e, v.SHA256); c != 1 {
			t.Fatalf("the package's bytes: %d chunks, want 1", c)
		}
		var twin firmware.PackageView
		upload(t, e, admin, fields("12", "70111", "T-1.0-twin"), data).Decode(&twin)
		e.MustOK("POST", "/base-info-app/upgradePack/delete", admin, map[string]any{"id": twin.ID})
		if c := chunks(t, e, v.SHA256); c != 1 {
			t.Fatalf("deleting a package with the same bytes took them from the other: %d chunks", c)
		}
	})
}

// chunks counts the store's chunks of the package bytes whose SHA-256 is sum.
func chunks(t *testing.T, e *apptest.Env, sum string) int {
	t.Helper()
	var n int
	if err := e.DB.NewRaw("SELECT COUNT(*) FROM file_chunks WHERE sha256 = ?", sum).Scan(t.Context(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPushScope(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		east := eastAdmin(t, e, admin)
		var pk httpx.Page[firmware.PackageView]
		e.MustOK("POST", "/base-info-app/upgradePack/page", admin, map[string]any{"kind": 0}).Decode(&pk)
		pkg := pk.List[0].ID
		var northCar int64
		if err := e.DB.NewRaw(`SELECT c.id FROM cars AS c JOIN org_groups AS g ON g.id = c.group_id JOIN terminals AS t ON t.car_id = c.id
WHERE g.name = '华北分公司' OR g.path LIKE (SELECT path FROM org_groups WHERE name = '华北分公司') || '%' ORDER BY c.id LIMIT 1`).Scan(t.Context(), &northCar); err != nil {
			t.Fatal(err)
		}
		count := func() int {
			var n int
			if err := e.DB.NewRaw("SELECT COUNT(*) FROM firmware_jobs").Scan(t.Context(), &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if r := e.Call("POST", "/base-info-app/upgradePack/push", east, map[string]any{"packageId": pkg, "carIds": []int64{northCar}}); r.Status != http.StatusForbidden || count() != 0 {
			t.Fatalf("another company's car: %d %s, %d jobs", r.Status, r.Body, count())
		}
		for name, body := range map[string]map[string]any{
			"no cars":       {"packageId": pkg, "carIds": []int64{}},
			"no package":    {"packageId": 0, "carIds": []int64{northCar}},
			"bad validity":  {"packageId": pkg, "carIds": []int64{northCar}, "validHours": 10000},
			"too many cars": {"packageId": pkg, "carIds": make([]int64, firmware.MaxPushTerminals+1)},
		} {
			if r := e.Call("POST", "/base-info-app/upgradePack/push", admin, body); r.Success != 0 {
				t.Errorf("%s: %s", name, r.Body)
			}
		}
		if r := e.Call("POST", "/base-info-app/upgradePack/push", admin, `{"packageId":"x"}`); r.Success != 0 {
			t.Errorf("wrong type: %s", r.Body)
		}
		var res firmware.PushResult
		e.MustOK("POST", "/base-info-app/upgradePack/push", admin, map[string]any{"packageId": pkg, "carIds": []int64{northCar, northCar}}).Decode(&res)
		if res.Terminals != 1 || count() != 1 {
			t.Fatalf("push %+v, %d jobs", res, count())
		}
		if r := e.Call("POST", "/base-info-app/upgradePack/push", admin, map[string]any{"packageId": pkg, "carIds": []int64{northCar}}); r.Success != 0 {
			t.Fatalf("queued twice: %s", r.Body)
		}
		var jobs httpx.Page[firmware.JobView]
		e.MustOK("POST", "/base-info-app/upgradePack/jobs", east, map[string]any{}).Decode(&jobs)
		if jobs.Total != 0 {
			t.Fatalf("华东 sees 华北's job: %+v", jobs.List)
		}
		e.MustOK("POST", "/base-info-app/upgradePack/jobs", admin, map[string]any{"status": firmware.StatusQueued}).Decode(&jobs)
		if jobs.Total != 1 || jobs.List[0].Version != "TW-808T 2.1.0" || jobs.List[0].Plate == "" {
			t.Fatalf("jobs %+v", jobs.List)
		}
		if r := e.Call("POST", "/base-info-app/upgradePack/retry", east, map[string]any{"carId": northCar, "packageId": pkg}); r.Status != http.StatusForbidden {
			t.Fatalf("retry another company's job: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/base-info-app/upgradePack/retry", admin, map[string]any{"carId": northCar, "packageId": pkg}); r.Success != 0 {
			t.Fatalf("retry a queued job: %s", r.Body)
		}
		var pushes httpx.Page[firmware.PushView]
		e.MustOK("POST", "/base-info-app/upgradePack/pushes", admin, map[string]any{}).Decode(&pushes)
		if pushes.Total != 1 || pushes.List[0].UserName != "admin" || pushes.List[0].Terminals != 1 {
			t.Fatalf("history %+v", pushes.List)
		}
		e.MustOK("POST", "/base-info-app/upgradePack/pushes", east, map[string]any{}).Decode(&pushes)
		if pushes.Total != 0 {
			t.Fatalf("华东 sees the platform's pushes: %+v", pushes.List)
		}
		x := e.Call("POST", "/base-info-app/upgradePack/pushExport", admin, map[string]any{})
		if x.Status != 200 || !bytes.HasPrefix(x.Body, []byte("PK")) {
			t.Fatalf("export: %d %.200s", x.Status, x.Body)
		}
	})
}

// TestPushToTerminal pushes the demo package through the real gateway to a simulated terminal and
// waits for the terminal's 0x0108 success; then the job is retried after a forced failure.
func TestPushToTerminal(t *testing.T) {
	for _, d := range dbtest.Dialects() {
		t.Run(d, func(t *testing.T) {
			e := apptest.NewWithGateway(t, d)
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			truck := e.Drive(t, term.ID)
			var pk httpx.Page[firmware.PackageView]
			e.MustOK("POST", "/base-info-app/upgradePack/page", admin, map[string]any{"kind": 0}).Decode(&pk)
			e.MustOK("POST", "/base-info-app/upgradePack/push", admin, map[string]any{"packageId": pk.List[0].ID, "carIds": []int64{*term.CarID}})
			var job firmware.JobView
			deadline := time.Now().Add(60 * time.Second)
			for job.Status != firmware.StatusAcked {
				if time.Now().After(deadline) {
					t.Fatalf("not acknowledged: %+v", job)
				}
				time.Sleep(100 * time.Millisecond)
				var jobs httpx.Page[firmware.JobView]
				e.MustOK("POST", "/base-info-app/upgradePack/jobs", admin, map[string]any{}).Decode(&jobs)
				job = jobs.List[0]
			}
			if job.Result != 0 || job.Total != job.Acked || job.Total < 200 || job.Attempts != 1 {
				t.Fatalf("job %+v", job)
			}
			if v := truck.Firmware(0); v != "TW-808T 2.1.0" {
				t.Fatalf("terminal runs %q", v)
			}
			// the terminal list shows the version of the last successful upgrade, filters and sorts by it
			var terms httpx.Page[fleet.TerminalView]
			e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"firmware": pk.List[0].Version}).Decode(&terms)
			if terms.Total != 1 || terms.List[0].ID != term.ID || terms.List[0].Firmware != pk.List[0].Version {
				t.Fatalf("by firmware %+v", terms)
			}
			e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"pageSize": 3, "sortField": "firmware", "sortOrder": "descend"}).Decode(&terms)
			if terms.Total < 2 || terms.List[0].ID != term.ID || terms.List[1].Firmware != "" {
				t.Fatalf("sorted by firmware %+v", terms)
			}
		})
	}
}

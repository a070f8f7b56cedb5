package equipment_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/audit"
	"tankwatch/internal/equipment"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

const (
	codeAdd  = "/base-info-app/baseType/add"
	codeEdit = "/base-info-app/baseType/edit"
	codeDel  = "/base-info-app/baseType/delete"
	codePage = "/base-info-app/baseType/page"
)

// TestKindsFromCodeList (D95): device kinds are the equipmentKind code list's. The demo's rows hold
// the seeded codes, in the list's order; an unknown kind is refused in three languages with nothing
// stored; an added kind is taken by devices and models, filtered on, named in the export and the
// operation log by its label; a kind in use is not deleted; a disabled kind is refused for a new device
// but stays valid on the device and model holding it; the register kinds are neither deleted nor
// disabled.
func TestKindsFromCodeList(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		all := v.list(v.admin, map[string]any{"pageSize": 500})
		seen := map[equipment.Kind]int{}
		for _, d := range all.List {
			seen[d.Kind]++
			if d.Key != string(d.Kind)+":"+d.Serial {
				t.Errorf("key %q of %s %s", d.Key, d.Kind, d.Serial)
			}
		}
		for _, k := range []equipment.Kind{equipment.KindTerminal, equipment.KindLock, equipment.KindGauge, equipment.KindCamera, equipment.KindProbe} {
			if seen[k] == 0 {
				t.Errorf("no demo device of kind %s: %v", k, seen)
			}
		}
		if all.List[0].Kind != equipment.KindTerminal {
			t.Errorf("the list does not start with the list's first kind: %s", all.List[0].Kind)
		}

		term := v.list(v.admin, map[string]any{"kind": "terminal", "pageSize": 1}).List[0]
		in := map[string]any{"kind": "dashcam", "serial": "dc-01", "carId": *term.CarID}
		for lang, want := range map[string]string{
			"":      "设备类型 dashcam 不存在或已停用，请在“基础类型”的设备类型中查看",
			"zh-TW": "設備類型 dashcam 不存在或已停用，請在「基礎型別」的設備類型中查看",
			"en-US": "Device kind dashcam does not exist or is disabled; see the device kinds under base types"} {
			e.Lang = lang
			if r := e.Call("POST", save, v.admin, in); r.Code != 0 || r.Message != want {
				t.Errorf("unknown kind %q: %s", lang, r.Body)
			}
		}
		e.Lang = ""
		if n := v.list(v.admin, map[string]any{"kind": "dashcam"}).Total; n != 0 {
			t.Fatalf("refused device stored: %d", n)
		}

		kind := e.MustOK("POST", codeAdd, v.admin, map[string]any{"type": equipment.KindList, "code": "dashcam",
			"labelZh": "行车记录仪", "labelTw": "行車記錄器", "labelEn": "Dash camera", "sort": 45}).ID()
		var model equipment.Model
		v.MustOK("POST", modelSave, v.admin, map[string]any{"name": "DC-1", "kind": "dashcam", "videoChannels": 1}).Decode(&model)
		in["modelId"] = model.ID
		var dc equipment.View
		v.MustOK("POST", save, v.admin, in).Decode(&dc)
		if dc.Kind != "dashcam" || dc.Serial != "DC-01" || dc.Mirror || dc.ModelName != "DC-1" {
			t.Fatalf("saved %+v", dc)
		}
		if got := v.list(v.admin, map[string]any{"kind": "dashcam"}); got.Total != 1 || got.List[0].ID != dc.ID {
			t.Errorf("filter by the added kind: %+v", got)
		}
		var opts []equipment.ModelOption
		v.MustOK("GET", modelList+"?kind=dashcam", v.admin, nil).Decode(&opts)
		if len(opts) != 1 || opts[0].Name != "DC-1" {
			t.Errorf("models of the added kind: %+v", opts)
		}
		e.Lang = "en-US"
		x := e.Call("POST", export, v.admin, map[string]any{"kind": "dashcam"})
		e.Lang = ""
		if x.Status != 200 || !strings.Contains(apptest.SheetText(t, x.Body), "Dash camera\tDC-01") {
			t.Errorf("export %d: %s", x.Status, apptest.SheetText(t, x.Body))
		}
		var log httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", v.admin, map[string]any{"module": "equipment", "target": "DC-01"}).Decode(&log)
		if log.Total != 1 || log.List[0]["detailText"] != "类型：行车记录仪" {
			t.Errorf("operation log %+v", log.List)
		}

		if r := e.Call("POST", codeDel, v.admin, map[string]any{"id": kind}); r.Code != 0 || !strings.Contains(r.Message, "2 条记录") {
			t.Errorf("deleting a kind a device and a model hold: %s", r.Body)
		}
		e.MustOK("POST", codeEdit, v.admin, map[string]any{"id": kind, "labelZh": "行车记录仪", "enabled": false})
		if r := e.Call("POST", save, v.admin, map[string]any{"kind": "dashcam", "serial": "DC-02"}); r.Code != 0 || !strings.Contains(r.Message, "dashcam") {
			t.Errorf("a disabled kind for a new device: %s", r.Body)
		}
		in["id"], in["notes"] = dc.ID, "换了支架"
		v.MustOK("POST", save, v.admin, in) // holds dashcam: still valid
		model.Remark = "停用后仍可修改"
		v.MustOK("POST", modelSave, v.admin, model)
		if r := e.Call("POST", modelSave, v.admin, map[string]any{"name": "DC-2", "kind": "dashcam"}); r.Code != 0 {
			t.Errorf("a disabled kind for a new model: %s", r.Body)
		}

		// the register kinds stay: not deleted, not disabled; a kind without registers may be disabled
		items := map[string]int64{}
		var list httpx.Page[struct {
			ID     int64  `json:"id"`
			Code   string `json:"code"`
			Pinned bool   `json:"pinned"`
		}]
		e.MustOK("POST", codePage, v.admin, map[string]any{"type": equipment.KindList, "pageSize": 50}).Decode(&list)
		for _, it := range list.List {
			items[it.Code] = it.ID
			// the page greys out disabling and deleting the items the server would refuse
			if want := slices.Contains(equipment.MirroredKinds, it.Code); it.Pinned != want {
				t.Errorf("kind %s pinned %v, want %v", it.Code, it.Pinned, want)
			}
		}
		if len(items) != 7 {
			t.Fatalf("kinds %v", items)
		}
		for _, code := range equipment.MirroredKinds {
			if r := e.Call("POST", codeEdit, v.admin, map[string]any{"id": items[code], "labelZh": "改名", "enabled": false}); r.Code != 0 ||
				!strings.Contains(r.Message, "不能删除或停用") {
				t.Errorf("disabling %s: %s", code, r.Body)
			}
			if r := e.Call("POST", codeDel, v.admin, map[string]any{"id": items[code]}); r.Code != 0 || !strings.Contains(r.Message, "不能删除或停用") {
				t.Errorf("deleting %s: %s", code, r.Body)
			}
		}
		e.MustOK("POST", codeEdit, v.admin, map[string]any{"id": items["terminal"], "labelZh": "车载主机", "enabled": true})
		e.MustOK("POST", codeEdit, v.admin, map[string]any{"id": items["other"], "labelZh": "其他设备", "enabled": false})
		if got := v.list(v.admin, map[string]any{"kind": "terminal"}); got.Total != v.list(v.admin, map[string]any{"kind": "terminal", "pageSize": 1}).Total || got.Total == 0 {
			t.Errorf("terminals after renaming their kind: %d", got.Total)
		}
		x = e.Call("POST", export, v.admin, map[string]any{"kind": "terminal"})
		if !strings.Contains(apptest.SheetText(t, x.Body), "车载主机\t") {
			t.Errorf("export after renaming: %.300s", apptest.SheetText(t, x.Body))
		}
	})
}

// TestKindMigration runs migration 00041 over devices, models and log rows of the former numbers 1–6:
// each becomes the seeded code of the same meaning, and an old log row reads as it did.
func TestKindMigration(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			d, up := dbtest.BeforeMigration(t, dialect, "_equipment_kind_codes.sql")
			detail := audit.Text("oplog.equipmentKind", audit.Key("field.equipment.kind.5"))
			for _, q := range []string{
				"INSERT INTO org_groups (id, name, code, path, created_at) VALUES (1, 'g', 'G', '/1/', 0)",
				"INSERT INTO equipment_models (id, name, kind, created_at, updated_at) VALUES (1, 'T1', 1, 0, 0), (2, 'C1', 4, 0, 0)",
				"INSERT INTO equipment (group_id, kind, serial, model_id, created_at, updated_at) VALUES " +
					"(1, 4, 'S4', 2, 0, 0), (1, 1, 'S1', 1, 0, 0), (1, 6, 'S6', NULL, 0, 0), (1, 2, 'S2', NULL, 0, 0), (1, 5, 'S5', NULL, 0, 0), (1, 3, 'S3', NULL, 0, 0)",
				"INSERT INTO operation_logs (module, action, target, detail, created_at) VALUES ('equipment', 'update', 'ATG-1', '" + detail + "', 0)",
			} {
				if _, err := d.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if err := up(); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			var kinds []string
			if err := d.NewSelect().TableExpr("equipment").Column("kind").OrderExpr("serial").Scan(ctx, &kinds); err != nil {
				t.Fatal(err)
			}
			if strings.Join(kinds, ",") != "terminal,probe,lock,camera,gauge,other" {
				t.Fatalf("device kinds %v", kinds)
			}
			kinds = nil
			if err := d.NewSelect().TableExpr("equipment_models").Column("kind").OrderExpr("id").Scan(ctx, &kinds); err != nil {
				t.Fatal(err)
			}
			if strings.Join(kinds, ",") != "terminal,camera" {
				t.Fatalf("model kinds %v", kinds)
			}
			// the rebuilt table keeps one device per kind + serial
			if _, err := d.ExecContext(ctx, "INSERT INTO equipment (group_id, kind, serial, created_at, updated_at) VALUES (1, 'camera', 'S4', 0, 0)"); err == nil {
				t.Error("a second camera S4 was stored")
			}
			var stored string
			if err := d.NewSelect().TableExpr("operation_logs").Column("detail").Scan(ctx, &stored); err != nil {
				t.Fatal(err)
			}
			for l, want := range map[i18n.Lang]string{i18n.ZhCN: "类型：站点液位仪", i18n.ZhTW: "類型：站點液位儀", i18n.EnUS: "Kind: Station tank gauge"} {
				if got := audit.Render(l, "equipment", "update", stored); got != want {
					t.Errorf("old log row in %s: %q (%s)", l, got, stored)
				}
			}
		})
	}
}

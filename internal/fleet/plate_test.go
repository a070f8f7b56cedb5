package fleet_test

import (
	"context"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
)

// TestPlateForms: 苏A12345, 苏A·12345, 苏a 12345 and 苏A・12345 are one car — a second registration in
// any form is refused with a message naming the plate in use (three languages), and every plate
// search of the registry finds the car whichever form is typed (D30).
func TestPlateForms(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		car := func(plate string, group int64) map[string]any {
			return map[string]any{"plate": plate, "groupId": group, "compartments": 2, "driverName": "王_师傅"}
		}
		ins := func(plate string, group int64) *apptest.Resp {
			return e.Call("POST", "/base-info-app/carInfo/insert", admin, car(plate, group))
		}
		var first fleet.CarView
		e.MustOK("POST", "/base-info-app/carInfo/insert", admin, car("苏A12345", g["华东分公司"])).Decode(&first)
		if first.Plate != "苏A12345" {
			t.Fatalf("stored %q, want the plate as entered", first.Plate)
		}
		// the same plate in any form, in any group (a plate is one physical car, platform-wide)
		for _, p := range []string{"苏A·12345", "苏a 12345", "苏A・12345", "苏A•12345", "苏A.12345", "苏ａ１２３４５"} {
			expectFail(t, ins(p, g["华南分公司"]), "车牌号 苏A12345 已被其他车辆使用（不计中间点、空格与大小写）")
		}
		e.Lang = "zh-TW"
		expectFail(t, ins("苏A·12345", g["华北分公司"]), "車牌號 苏A12345 已被其他車輛使用（不計中間點、空格與大小寫）")
		e.Lang = "en-US"
		expectFail(t, ins("苏A·12345", g["华北分公司"]), "The licence plate 苏A12345 is already used by another vehicle (dots, spaces and case do not count)")
		e.Lang = ""

		// another separator is stored as the plate's own middle dot
		var second fleet.CarView
		e.MustOK("POST", "/base-info-app/carInfo/insert", admin, car("苏a・12346", g["华东分公司"])).Decode(&second)
		if second.Plate != "苏A·12346" {
			t.Fatalf("stored %q, want 苏A·12346", second.Plate)
		}
		// update: onto the other car's plate is refused; a car may change the form of its own plate
		upd := car("苏A 12345", g["华东分公司"])
		upd["id"] = second.ID
		expectFail(t, e.Call("POST", "/base-info-app/carInfo/update", admin, upd), "车牌号 苏A12345 已被其他车辆使用（不计中间点、空格与大小写）")
		upd = car("苏A·12345", g["华东分公司"])
		upd["id"] = first.ID
		var u fleet.CarView
		e.MustOK("POST", "/base-info-app/carInfo/update", admin, upd).Decode(&u)
		if u.Plate != "苏A·12345" {
			t.Fatalf("updated plate %q", u.Plate)
		}

		// every registry search finds both cars whichever form is typed, and a dotted demo car undotted
		for _, q := range []string{"苏A1234", "苏A·1234", "苏a 1234", "苏A・1234", "a1234"} {
			if p := carPage(t, e, admin, map[string]any{"plate": q}); p.Total != 2 {
				t.Errorf("carInfo/page plate %q: %d cars", q, p.Total)
			}
			var tree []*fleet.TreeNode
			e.MustOK("POST", "/authority-app/groupInfo/findCars", admin, map[string]any{"name": q}).Decode(&tree)
			if ls := leaves(tree); len(ls) != 2 {
				t.Errorf("findCars tree %q: %v", q, ls)
			}
		}
		if p := carPage(t, e, admin, map[string]any{"plate": "沪b9f2"}); p.Total != 1 || p.List[0].Plate != "沪B·9F218" {
			t.Errorf("沪b9f2: %+v", p)
		}
		// the terminal list's plate filter: the demo terminal of 沪B·9F218 by the plate without its dot
		var terms httpx.Page[fleet.TerminalView]
		e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"plate": "沪B9F218"}).Decode(&terms)
		if terms.Total != 1 || terms.List[0].Plate != "沪B·9F218" {
			t.Errorf("terminal/page plate: %+v", terms)
		}

		// % and _ are characters, not wildcards
		if p := carPage(t, e, admin, map[string]any{"plate": "%"}); p.Total != 0 {
			t.Errorf("plate %%: %d cars", p.Total)
		}
		if p := carPage(t, e, admin, map[string]any{"driverName": "_"}); p.Total != 2 {
			t.Errorf("driver _: %d cars, want the two 王_师傅", p.Total)
		}
		if p := carPage(t, e, admin, map[string]any{"driverName": "王_"}); p.Total != 2 {
			t.Errorf("driver 王_: %d cars", p.Total)
		}
		if p := carPage(t, e, admin, map[string]any{"driverName": "张_国"}); p.Total != 0 {
			t.Errorf("driver 张_国 matched 张建国: %d cars", p.Total)
		}
	})
}

// TestPlateKeyBackfill runs the plate-key migration over a registry that already holds one car in two
// forms: the migration succeeds, the first keeps the key, the double gets its id appended (still found
// by a search), and from then on the store itself refuses a second car with the same key.
func TestPlateKeyBackfill(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			d, up := dbtest.BeforeMigration(t, dialect, "_car_plate_keys.sql")
			for _, q := range []string{
				"INSERT INTO org_groups (id, name, code, path, created_at) VALUES (1, 'g', 'G', '/1/', 0)",
				"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (1, 1, '苏A12345', 2, 0, 0)",
				"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (2, 1, '沪B·9F218', 2, 0, 0)",
				"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (3, 1, '苏A·12345', 2, 0, 0)",
			} {
				if _, err := d.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if err := up(); err != nil {
				t.Fatalf("migrate over doubles: %v", err)
			}
			var keys []string
			if err := d.NewSelect().TableExpr("cars").Column("plate_key").OrderExpr("id").Scan(ctx, &keys); err != nil {
				t.Fatal(err)
			}
			if strings.Join(keys, ",") != "苏A12345,沪B9F218,苏A12345#3" {
				t.Fatalf("keys %v", keys)
			}
			var found []int64
			if err := d.NewSelect().TableExpr("cars").Column("id").Where(db.Contains("plate_key", "苏A12345")).OrderExpr("id").Scan(ctx, &found); err != nil {
				t.Fatal(err)
			}
			if len(found) != 2 {
				t.Fatalf("search after backfill: %v", found)
			}
			_, err := d.ExecContext(ctx, "INSERT INTO cars (group_id, plate, plate_key, compartments, created_at, updated_at) VALUES (1, '沪B9F218', '沪B9F218', 2, 0, 0)")
			if !db.IsUniqueViolation(err) {
				t.Fatalf("second 沪B9F218: %v", err)
			}
		})
	}
}

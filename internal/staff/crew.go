package staff

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// crewRow is a registered person matched for a waybill, with their approved leave on the day.
type crewRow struct {
	ID         int64  `bun:"id"`
	Name       string `bun:"name"`
	Phone      string `bun:"phone"`
	Roles      int    `bun:"roles"`
	State      int    `bun:"state"`
	LicenceExp int    `bun:"licence_expiry"`
	QualKind   int    `bun:"qual_kind"`
	QualExp    int    `bun:"qual_expiry"`
	OnLeave    int    `bun:"on_leave"`
}

func (c *crewRow) person() Person {
	return Person{Name: c.Name, Roles: c.Roles, State: c.State, LicenceExp: c.LicenceExp, QualKind: c.QualKind, QualExp: c.QualExp, OnLeave: c.OnLeave > 0}
}

// crewSel is the employees related to the carrier group path (the group itself, above it or below it:
// a company's drivers are often filed at the company while its cars sit in a fleet under it, D60), with
// whether approved leave covers day.
func crewSel(idb bun.IDB, carPath string, day int) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("employees AS e").Join("JOIN org_groups AS g ON g.id = e.group_id").
		ColumnExpr("e.id, e.name, e.phone, e.roles, e.state, e.licence_expiry, e.qual_kind, e.qual_expiry").
		ColumnExpr("(SELECT COUNT(*) FROM leave_records AS l WHERE l.employee_id = e.id AND l.state = ? AND l.start_day <= ? AND l.end_day >= ?) AS on_leave", LeaveApproved, day, day).
		Where("(? LIKE g.path || '%' OR g.path LIKE ? || '%')", carPath, carPath)
}

// dayOfMS is the Asia/Shanghai day of Unix milliseconds at.
func dayOfMS(at int64) int { return DayOf(time.UnixMilli(at)) }

// CrewCheck is the waybill service's driver / escort check (bill.Service.Crew, wired in
// internal/app/staff.go): a phone of a registered person of the car's company (carrier group carGroupID)
// must belong to someone who may do the job on the day of at; a phone nobody registered passes (free
// text stays allowed). The refusal names the person and why.
func CrewCheck(ctx context.Context, idb bun.IDB, carGroupID, at int64, driverPhone, escortPhone string) error {
	var path string
	if err := idb.NewSelect().TableExpr("org_groups").Column("path").Where("id = ?", carGroupID).Scan(ctx, &path); err != nil {
		return err
	}
	day := dayOfMS(at)
	for _, c := range []struct {
		phone string
		role  int
	}{{driverPhone, RoleDriver}, {escortPhone, RoleEscort}} {
		phone := strings.TrimSpace(c.phone)
		if phone == "" {
			continue
		}
		var rows []crewRow
		if err := crewSel(idb, path, day).Where("e.phone = ?", phone).OrderExpr("e.id").Scan(ctx, &rows); err != nil {
			return err
		}
		var why string
		var who string
		for i := range rows {
			k := Ineligible(rows[i].person(), c.role, day)
			if k == "" {
				why = ""
				break
			}
			if why == "" {
				why, who = k, rows[i].Name
			}
		}
		if why != "" {
			return httpx.Biz(why, who, FormatDay(day))
		}
	}
	return nil
}

// CrewQuery is the body of employees/crew: the people the waybill form may offer for car carId on the
// day of at (Unix ms; 0 now) as role (1 driver, 2 escort).
type CrewQuery struct {
	CarID   int64  `json:"carId"`
	At      int64  `json:"at"`
	Role    int    `json:"role"`
	Keyword string `json:"keyword"`
}

// CrewOption is one person the waybill form offers.
type CrewOption struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Phone string `json:"phone"`
}

// Crew lists the eligible drivers or escorts of the car's company (at most 200, by name).
func (s *Service) Crew(ctx context.Context, p *httpx.Principal, q CrewQuery) ([]CrewOption, error) {
	if q.Role != RoleDriver && q.Role != RoleEscort {
		return nil, httpx.Invalid("staff.roles")
	}
	var car struct {
		Path string `bun:"path"`
	}
	if q.CarID <= 0 {
		return nil, httpx.Required("staff.car")
	}
	sel := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", q.CarID)
	ref, err := db.ScopedRow(ctx, sel, p, func(r *struct {
		Path string `bun:"path"`
	}) string {
		return r.Path
	})
	if err != nil {
		return nil, err
	}
	car = *ref
	at := q.At
	if at <= 0 {
		at = s.nowMS()
	}
	day := dayOfMS(at)
	var rows []crewRow
	cs := crewSel(s.db, car.Path, day).Where("(e.roles & ?) <> 0 AND e.state = ?", q.Role, StateOnDuty)
	if v := strings.TrimSpace(q.Keyword); v != "" {
		a, av := db.Contains("e.name", v)
		b, bv := db.Contains("e.phone", v)
		cs = cs.Where("("+a+" OR "+b+")", av, bv)
	}
	if err := cs.OrderExpr("e.name, e.id").Limit(500).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := []CrewOption{}
	for i := range rows {
		if Ineligible(rows[i].person(), q.Role, day) == "" && len(out) < 200 {
			out = append(out, CrewOption{ID: rows[i].ID, Name: rows[i].Name, Phone: rows[i].Phone})
		}
	}
	return out, nil
}

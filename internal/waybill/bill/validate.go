// Package bill is the waybills themselves (issue 15, pages basedata/waybill, waybill2, waybill3):
// create, edit, delete, import, export, print data, dispatch to the car's terminal, cancel, and the
// waybills made from a transport plan's items. State changes go through waybill.Advance only.
package bill

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Limits of a waybill's fields.
const (
	MaxDestinations = 8
	MaxCompartments = 8
	MaxPlannedL     = 60000 // one compartment of a road tanker
	maxName         = 32
	maxPhone        = 20
	maxRemark       = 200
	maxReason       = 200
)

// CompInput is one compartment of a waybill: its number (1…the car's compartments), the product, the
// planned volume (L) and the destination (1…the number of destinations) it is unloaded at.
type CompInput struct {
	No        int     `json:"no"`
	ProductID int64   `json:"productId"`
	PlannedL  float64 `json:"plannedL"`
	DestSeq   int     `json:"destSeq"`
}

// Input is the body of add and update (and one row of an import): what a dispatcher plans.
type Input struct {
	ID              int64       `json:"id"`
	CarID           int64       `json:"carId"`
	DepotID         int64       `json:"depotId"`
	StationIDs      []int64     `json:"stationIds"` // destinations, in the order they are visited
	CustomerID      int64       `json:"customerId"`
	SalesGroupID    int64       `json:"salesGroupId"`
	PlannedLoadAt   int64       `json:"plannedLoadAt"`
	PlannedArriveAt int64       `json:"plannedArriveAt"`
	DriverName      string      `json:"driverName"`
	DriverPhone     string      `json:"driverPhone"`
	EscortName      string      `json:"escortName"`
	EscortPhone     string      `json:"escortPhone"`
	Remark          string      `json:"remark"`
	Compartments    []CompInput `json:"compartments"`
	PlanID          int64       `json:"-"` // set by fromPlan only
}

var phoneRe = regexp.MustCompile(`^\+?[0-9][0-9 -]{4,19}$`)

func cleanText(v *string, field string, max int) error {
	*v = strings.TrimSpace(*v)
	if utf8.RuneCountInString(*v) > max {
		return httpx.Biz("field.maxLen", i18n.Field(field), max)
	}
	return nil
}

func cleanPhone(v *string, field string) error {
	*v = strings.TrimSpace(*v)
	if *v == "" {
		return nil
	}
	if len(*v) > maxPhone || !phoneRe.MatchString(*v) {
		return httpx.Invalid(field)
	}
	return nil
}

// compErr is a compartment's error: "Compartment n: <message>".
func compErr(no int, key string, args ...any) error {
	return httpx.Biz("waybillBills.comp."+key, append([]any{no}, args...)...)
}

// Clean checks the shape of in (every field on its own and the compartments/destinations rules that
// need no store): car, depot, 1–8 distinct destinations, 1–8 compartments numbered 1–8 without
// repeats, each with a product, a planned volume (0 < V ≤ MaxPlannedL) and a destination among the
// waybill's; planned loading and arrival times with arrival after loading; names, phones, remark.
// The store checks (scope, types, the car's compartment count and capacities, bindings) follow in
// the service.
func (in *Input) Clean() error {
	if in.CarID <= 0 {
		return httpx.Required("waybillBills.car")
	}
	if in.DepotID <= 0 {
		return httpx.Required("waybillBills.depot")
	}
	if len(in.StationIDs) == 0 {
		return httpx.Required("waybillBills.destinations")
	}
	if len(in.StationIDs) > MaxDestinations {
		return httpx.Biz("waybillBills.tooManyDest", MaxDestinations)
	}
	seen := map[int64]bool{}
	for _, id := range in.StationIDs {
		if id <= 0 {
			return httpx.Invalid("waybillBills.destinations")
		}
		if seen[id] {
			return httpx.Biz("waybillBills.destTwice")
		}
		if id == in.DepotID {
			return httpx.Biz("waybillBills.destIsDepot")
		}
		seen[id] = true
	}
	if in.CustomerID < 0 {
		return httpx.Invalid("waybillBills.customer")
	}
	if in.SalesGroupID < 0 {
		return httpx.Invalid("waybillBills.salesGroup")
	}
	if in.PlannedLoadAt <= 0 {
		return httpx.Required("waybillBills.plannedLoadAt")
	}
	if in.PlannedArriveAt <= 0 {
		return httpx.Required("waybillBills.plannedArriveAt")
	}
	if in.PlannedArriveAt <= in.PlannedLoadAt {
		return httpx.Biz("waybillBills.arriveBeforeLoad")
	}
	for _, e := range []error{
		cleanText(&in.DriverName, "waybillBills.driverName", maxName),
		cleanPhone(&in.DriverPhone, "waybillBills.driverPhone"),
		cleanText(&in.EscortName, "waybillBills.escortName", maxName),
		cleanPhone(&in.EscortPhone, "waybillBills.escortPhone"),
		cleanText(&in.Remark, "waybillBills.remark", maxRemark),
	} {
		if e != nil {
			return e
		}
	}
	if len(in.Compartments) == 0 {
		return httpx.Required("waybillBills.compartments")
	}
	if len(in.Compartments) > MaxCompartments {
		return httpx.Biz("waybillBills.tooManyComps", MaxCompartments)
	}
	nos := map[int]bool{}
	for i := range in.Compartments {
		c := &in.Compartments[i]
		if c.No < 1 || c.No > MaxCompartments {
			return httpx.Biz("field.range", i18n.Field("waybillBills.compNo"), 1, MaxCompartments)
		}
		if nos[c.No] {
			return httpx.Biz("waybillBills.compTwice", c.No)
		}
		nos[c.No] = true
		if c.ProductID <= 0 {
			return compErr(c.No, "field.required", i18n.Field("waybillBills.product"))
		}
		if !(c.PlannedL > 0) || c.PlannedL > MaxPlannedL {
			return compErr(c.No, "field.range", i18n.Field("waybillBills.plannedL"), 1, MaxPlannedL)
		}
		if c.DestSeq == 0 {
			c.DestSeq = 1
		}
		if c.DestSeq < 1 || c.DestSeq > len(in.StationIDs) {
			return compErr(c.No, "field.range", i18n.Field("waybillBills.destSeq"), 1, len(in.StationIDs))
		}
	}
	return nil
}

// cleanReason checks a cancellation reason.
func cleanReason(v *string) error {
	*v = strings.TrimSpace(*v)
	if *v == "" {
		return httpx.Required("waybillBills.reason")
	}
	if utf8.RuneCountInString(*v) > maxReason {
		return httpx.Biz("field.maxLen", i18n.Field("waybillBills.reason"), maxReason)
	}
	return nil
}

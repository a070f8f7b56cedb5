// Package staff is the staff register of issue 18: employees (drivers, escorts, loaders, dispatchers)
// with their licences and dangerous-goods qualification (basedata/employees, 03-08), duties and who
// holds them (jobDuty, 03-19), leave with its approval (leaveRecord, 03-18) and the loading / unloading
// procedures (operateFlow, 03-20). It also answers the waybill service whether a registered driver or
// escort may be put on a waybill (D60). Tables: migration 00031.
package staff

import (
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/expiry"
)

// Permission codes (internal/org/menu.json).
const (
	CodeEmployees    = "03-08"
	CodeEmpAdd       = "03-08-01"
	CodeEmpEdit      = "03-08-02"
	CodeEmpDelete    = "03-08-03"
	CodeEmpExport    = "03-08-04"
	CodeEmpImport    = "03-08-05"
	CodeLeave        = "03-18"
	CodeLeaveAdd     = "03-18-01"
	CodeLeaveEdit    = "03-18-02"
	CodeLeaveDelete  = "03-18-03"
	CodeLeaveApprove = "03-18-04"
	CodeLeaveExport  = "03-18-05"
	CodeDuty         = "03-19"
	CodeDutyAdd      = "03-19-01"
	CodeDutyEdit     = "03-19-02"
	CodeDutyDelete   = "03-19-03"
	CodeFlow         = "03-20"
	CodeFlowAdd      = "03-20-01"
	CodeFlowEdit     = "03-20-02"
	CodeFlowDelete   = "03-20-03"
)

// Operation log modules.
const (
	ModuleEmployee = "employee"
	ModuleDuty     = "jobDuty"
	ModuleLeave    = "leaveRecord"
	ModuleFlow     = "operateFlow"
	ActionApprove  = "leaveApprove"
	ActionReject   = "leaveReject"
)

// Roles an employee may hold (a bit set: one person may drive and escort).
const (
	RoleDriver     = 1
	RoleEscort     = 2
	RoleLoader     = 4
	RoleDispatcher = 8
	roleAll        = RoleDriver | RoleEscort | RoleLoader | RoleDispatcher
)

// Roles lists the role bits in display order.
var Roles = []int{RoleDriver, RoleEscort, RoleLoader, RoleDispatcher}

// Qualification kinds of the dangerous-goods transport certificate.
const (
	QualNone   = 0
	QualDriver = 1
	QualEscort = 2
)

// Employee states.
const (
	StateOnDuty = 1
	StateLeft   = 2
)

// Expiry states of an employee's licence and qualification, the earlier of the two deciding.
const (
	ExpiryNone    = "none"     // no expiry date registered
	ExpiryValid   = "valid"    // more than WarnDays away
	ExpiringSoon  = "expiring" // within WarnDays (today included)
	ExpiryExpired = "expired"  // before today
	WarnDays      = expiry.WarnDays
)

// LicenceClasses are the Chinese driving licence classes (GB/T, 《机动车驾驶证申领和使用规定》).
var LicenceClasses = []string{"A1", "A2", "A3", "B1", "B2", "C1", "C2", "C3", "C4", "C5", "C6", "D", "E", "F", "M", "N", "P"}

var shanghai = expiry.Zone

// DayOf is t's Asia/Shanghai date as YYYYMMDD.
func DayOf(t time.Time) int {
	t = t.In(shanghai)
	return t.Year()*10000 + int(t.Month())*100 + t.Day()
}

// DayTime is the start of day d (YYYYMMDD) in Asia/Shanghai; ok false when d is not a date.
func DayTime(d int) (time.Time, bool) {
	y, m, dd := d/10000, d/100%100, d%100
	t := time.Date(y, time.Month(m), dd, 0, 0, 0, 0, shanghai)
	if y < 1900 || y > 2200 || t.Year() != y || int(t.Month()) != m || t.Day() != dd {
		return time.Time{}, false
	}
	return t, true
}

// AddDays is day d (YYYYMMDD) plus n days.
func AddDays(d, n int) int {
	t, ok := DayTime(d)
	if !ok {
		return d
	}
	return DayOf(t.AddDate(0, 0, n))
}

// ParseDay reads "YYYY-MM-DD" (or YYYYMMDD, or "YYYY/MM/DD"); "" is 0.
func ParseDay(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	if len(s) >= 10 {
		s = s[:10]
	}
	s = strings.NewReplacer("-", "", "/", "", ".", "").Replace(s)
	if len(s) != 8 {
		return 0, false
	}
	d := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		d = d*10 + int(c-'0')
	}
	if _, ok := DayTime(d); !ok {
		return 0, false
	}
	return d, true
}

// FormatDay is d as "YYYY-MM-DD" ("" for 0).
func FormatDay(d int) string {
	if d == 0 {
		return ""
	}
	t, ok := DayTime(d)
	if !ok {
		return ""
	}
	return t.Format("2006-01-02")
}

// Earliest is the earlier of two days, 0 counting as none.
func Earliest(a, b int) int {
	switch {
	case a == 0:
		return b
	case b == 0 || a < b:
		return a
	}
	return b
}

// ExpiryState is the state of expiry day exp on day today.
func ExpiryState(exp, today int) string {
	return expiryNames[expiry.Of(exp, today, AddDays(today, WarnDays))]
}

var expiryNames = map[expiry.State]string{expiry.None: ExpiryNone, expiry.Valid: ExpiryValid, expiry.Expiring: ExpiringSoon,
	expiry.Expired: ExpiryExpired}

// idWeights and idCheck are GB 11643-1999's check digit: the weighted sum of the first 17 digits
// modulo 11 picks the 18th character.
var (
	idWeights = [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	idCheck   = "10X98765432"
)

// NormIDCard is an ID card number as stored: trimmed, a final x upper-cased.
func NormIDCard(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// ValidIDCard tells whether s (normalised) is an 18-character resident ID number with a valid birth
// date and check character (GB 11643-1999).
func ValidIDCard(s string) bool {
	if len(s) != 18 {
		return false
	}
	sum := 0
	for i := 0; i < 17; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return false
		}
		sum += int(c-'0') * idWeights[i]
	}
	if s[17] != idCheck[sum%11] {
		return false
	}
	birth := 0
	for i := 6; i < 14; i++ {
		birth = birth*10 + int(s[i]-'0')
	}
	_, ok := DayTime(birth)
	return ok
}

// IDCardCheck is the check character of the first 17 digits of an ID number (for the demo's numbers).
func IDCardCheck(first17 string) byte {
	sum := 0
	for i := 0; i < 17; i++ {
		sum += int(first17[i]-'0') * idWeights[i]
	}
	return idCheck[sum%11]
}

// Overlaps tells whether the inclusive day ranges [a1, a2] and [b1, b2] share a day.
func Overlaps(a1, a2, b1, b2 int) bool { return a1 <= b2 && b1 <= a2 }

// Person is what the eligibility check reads of a registered employee.
type Person struct {
	Name       string
	Roles      int
	State      int
	LicenceExp int
	QualKind   int
	QualExp    int
	OnLeave    bool // approved leave covering the day
}

// Ineligible is why p cannot be put on a waybill as role (RoleDriver or RoleEscort) on day: "" when
// they may. The key is a catalogue key taking the person's name.
func Ineligible(p Person, role, day int) string {
	switch {
	case p.State == StateLeft:
		return "staff.crewLeft"
	case p.Roles&role == 0:
		if role == RoleDriver {
			return "staff.crewNotDriver"
		}
		return "staff.crewNotEscort"
	case p.QualKind == QualNone || p.QualExp == 0:
		return "staff.crewNoQual"
	case p.QualExp < day:
		return "staff.crewQualExpired"
	case role == RoleDriver && p.LicenceExp != 0 && p.LicenceExp < day:
		return "staff.crewLicenceExpired"
	case p.OnLeave:
		return "staff.crewOnLeave"
	}
	return ""
}

// RoleNames is the catalogue keys of the roles in bit set r.
func RoleNames(r int) []string {
	var out []string
	for _, b := range Roles {
		if r&b != 0 {
			out = append(out, roleKey(b))
		}
	}
	return out
}

func roleKey(b int) string {
	return map[int]string{RoleDriver: "field.staff.role.driver", RoleEscort: "field.staff.role.escort",
		RoleLoader: "field.staff.role.loader", RoleDispatcher: "field.staff.role.dispatcher"}[b]
}

// NormLicences cleans a licence class list ("a2, b2" → "A2,B2", in the order of classes: the code
// list's, LicenceClasses when nil); ok false names the first unknown class.
func NormLicences(v string, classes []string) (string, string, bool) {
	if classes == nil {
		classes = LicenceClasses
	}
	have := map[string]bool{}
	for _, p := range strings.FieldsFunc(strings.ToUpper(v), func(r rune) bool { return r == ',' || r == ' ' || r == '，' || r == '、' || r == ';' }) {
		if !slices.Contains(classes, p) {
			return "", p, false
		}
		have[p] = true
	}
	var out []string
	for _, c := range classes {
		if have[c] {
			out = append(out, c)
		}
	}
	return strings.Join(out, ","), "", true
}

// today is the day of now in Asia/Shanghai.
func today(now time.Time) int { return DayOf(now) }

// Link rows (written through bun models: an insert needs one).
type dutyHolder struct {
	bun.BaseModel `bun:"table:duty_holders"`
	DutyID        int64 `bun:"duty_id"`
	EmployeeID    int64 `bun:"employee_id"`
}

type flowStep struct {
	bun.BaseModel `bun:"table:op_flow_steps"`
	FlowID        int64  `bun:"flow_id"`
	Seq           int    `bun:"seq"`
	Text          string `bun:"text"`
	DutyID        int64  `bun:"duty_id"`
}

type flowStation struct {
	bun.BaseModel `bun:"table:op_flow_stations"`
	FlowID        int64 `bun:"flow_id"`
	StationID     int64 `bun:"station_id"`
}

type flowProduct struct {
	bun.BaseModel `bun:"table:op_flow_products"`
	FlowID        int64 `bun:"flow_id"`
	ProductID     int64 `bun:"product_id"`
}

type photoRow struct {
	bun.BaseModel `bun:"table:employee_photos"`
	EmployeeID    int64  `bun:"employee_id"`
	Mime          string `bun:"mime"`
	Data          []byte `bun:"data"`
	UpdatedAt     int64  `bun:"updated_at"`
}

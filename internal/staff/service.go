package staff

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/settings/codes"
)

// Service is the staff register.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	// Codes reads the licence classes' code list (LicenceList, D66); nil: LicenceClasses.
	Codes interface {
		Items(ctx context.Context, typ string) ([]codes.Item, error)
	}
}

// LicenceList is the code list of licence classes (seeded with LicenceClasses).
const LicenceList = "licenceClass"

// licences are the licence classes a save accepts, in the list's order: the enabled items, and those
// in held (the employee's stored classes, which stay valid when disabled since).
func (s *Service) licences(ctx context.Context, held string) ([]string, error) {
	if s.Codes == nil {
		return nil, nil
	}
	items, err := s.Codes.Items(ctx, LicenceList)
	if err != nil {
		return nil, err
	}
	keep := strings.Split(held, ",")
	out := []string{}
	for _, it := range items {
		if it.Enabled || slices.Contains(keep, it.Code) {
			out = append(out, it.Code)
		}
	}
	return out, nil
}

// leaveKinds are the leave kinds a save accepts: the list's enabled items and held (the record's stored
// kind, which stays valid when disabled since); nil without a code list service (LeaveInput.Clean's
// seeded four).
func (s *Service) leaveKinds(ctx context.Context, held string) ([]string, error) {
	if s.Codes == nil {
		return nil, nil
	}
	items, err := s.Codes.Items(ctx, LeaveKindList)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, it := range items {
		if it.Enabled || it.Code == held {
			out = append(out, it.Code)
		}
	}
	return out, nil
}

// leaveKindLabel is a leave kind's label in lang (its code when the list no longer has it).
func (s *Service) leaveKindLabel(ctx context.Context, lang i18n.Lang, code string) string {
	items := codes.Defaults(LeaveKindList)
	if s.Codes != nil {
		items, _ = s.Codes.Items(ctx, LeaveKindList)
	}
	for _, it := range items {
		if it.Code == code {
			return it.Label(lang.String())
		}
	}
	return code
}

// CountByLeaveKind counts the leave records of a kind (the code list's usage check).
func (s *Service) CountByLeaveKind(ctx context.Context, code string) (int, error) {
	n, err := s.db.NewSelect().Table("leave_records").Where("kind = ?", code).Count(ctx)
	return int(n), err
}

// CountByLicence counts the employees holding a licence class (the code list's usage check).
func (s *Service) CountByLicence(ctx context.Context, code string) (int, error) {
	n, err := s.db.NewSelect().Table("employees").Where("(',' || licence_classes || ',') LIKE ?", "%,"+code+",%").Count(ctx)
	return int(n), err
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }
func (s *Service) today() int   { return today(s.Now()) }

func (s *Service) record(r *http.Request, module, action, target string, id int64, detail string) {
	if s.audit != nil && r != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id, Detail: detail})
	}
}

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

// groupFor is the group a record is filed under: the one named (in the caller's scope) or the
// caller's own.
func groupFor(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (int64, error) {
	if id <= 0 {
		return p.GroupID, nil
	}
	if _, err := db.ScopedGroupPath(ctx, idb, p, id); err != nil {
		return 0, err
	}
	return id, nil
}

type idBody struct {
	ID int64 `json:"id"`
}

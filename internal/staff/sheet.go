package staff

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// The columns of the employee sheet (import) and the first columns of the export, so that an export
// serves as a template.
var sheetHead = []string{"field.staff.name", "field.staff.idCard", "field.staff.phone", "field.staff.roles", "field.staff.group",
	"field.staff.licenceClasses", "field.staff.licenceExpiry", "field.staff.qualNo", "field.staff.qualKind", "field.staff.qualExpiry", "field.remark"}

const (
	maxImportBytes = 4 << 20
	maxImportRows  = 5000
)

// SheetRow is one employee of the sheet as read.
type SheetRow struct {
	Row    int    `json:"row"`
	Name   string `json:"name"`
	IDCard string `json:"idCard"`
	Phone  string `json:"phone"`
	Roles  int    `json:"roles"`
	Group  string `json:"group"`
}

// RowError is a wrong row with its reason in the reader's language.
type RowError struct {
	Row     int    `json:"row"`
	Message string `json:"message"`
}

// ImportResult is the answer of importPreview and import (nothing saved while any row is wrong).
type ImportResult struct {
	Rows   []SheetRow `json:"rows"`
	Errors []RowError `json:"errors"`
	Saved  int        `json:"saved"`
}

var langs = []i18n.Lang{i18n.ZhCN, i18n.ZhTW, i18n.EnUS}

// ParseRoles reads a roles cell: names in any language separated by commas or 、, or the bit set as a
// number; -1 when a part is unknown.
func ParseRoles(v string) int {
	v = strings.TrimSpace(v)
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	out := 0
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '，' || r == '、' || r == '/' || r == ';' }) {
		part = strings.ToLower(strings.TrimSpace(part))
		found := false
		for _, b := range Roles {
			for _, l := range langs {
				if strings.ToLower(i18n.T(l, roleKey(b))) == part {
					out |= b
					found = true
				}
			}
		}
		if !found {
			return -1
		}
	}
	return out
}

// ParseQualKind reads a qualification kind cell ("" none).
func ParseQualKind(v string) int {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return QualNone
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	for _, k := range []int{QualDriver, QualEscort} {
		for _, l := range langs {
			if strings.ToLower(i18n.T(l, "field.staff.qualKind."+strconv.Itoa(k))) == v {
				return k
			}
		}
	}
	return -1
}

func roleText(lang i18n.Lang, r int) string {
	var out []string
	for _, k := range RoleNames(r) {
		out = append(out, i18n.T(lang, k))
	}
	return strings.Join(out, "、")
}

// Import reads the uploaded employee sheet (first row the header when its ID cell is not a number) and,
// with save and no wrong row, adds every employee in one transaction.
func (s *Service) Import(w http.ResponseWriter, r *http.Request, save bool) (*ImportResult, error) {
	p, lang := httpx.Caller(r), httpx.Lang(r)
	cells, err := xlsx.ReadUpload(w, r, maxImportBytes, "staff")
	if err != nil {
		return nil, err
	}
	if len(cells) > maxImportRows+1 {
		return nil, httpx.Biz("staff.importTooMany", maxImportRows)
	}
	classes, err := s.licences(r.Context(), "")
	if err != nil {
		return nil, err
	}
	res := &ImportResult{Rows: []SheetRow{}, Errors: []RowError{}}
	fail := func(row int, err error) {
		msg := i18n.T(lang, "internal")
		var he *httpx.Error
		if errors.As(err, &he) {
			msg = i18n.T(lang, he.Key, he.Args...)
		}
		res.Errors = append(res.Errors, RowError{Row: row, Message: i18n.T(lang, "staff.importRow", row, msg)})
	}
	seen := map[string]int{}
	var inputs []Input
	err = s.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		for i, row := range cells {
			c := func(j int) string {
				if j < len(row) {
					return strings.TrimSpace(row[j])
				}
				return ""
			}
			id := NormIDCard(c(1))
			if strings.TrimSpace(strings.Join(row, "")) == "" || (i == 0 && (id == "" || id[0] < '0' || id[0] > '9')) {
				continue // empty rows, the header
			}
			sr := SheetRow{Row: i + 1, Name: c(0), IDCard: id, Phone: c(2), Roles: ParseRoles(c(3)), Group: c(4)}
			res.Rows = append(res.Rows, sr)
			in := Input{Name: sr.Name, IDCard: sr.IDCard, Phone: sr.Phone, Roles: sr.Roles, LicenceClasses: c(5), LicenceExpiry: c(6),
				QualNo: c(7), QualKind: ParseQualKind(c(8)), QualExpiry: c(9), Remark: c(10), classes: classes}
			if err := in.Clean(); err != nil {
				fail(sr.Row, err)
				continue
			}
			if first, dup := seen[in.IDCard]; dup {
				fail(sr.Row, httpx.Biz("staff.importDuplicate", in.IDCard, first))
				continue
			}
			seen[in.IDCard] = sr.Row
			if sr.Group != "" {
				var ids []int64
				if err := tx.NewSelect().TableExpr("org_groups").Column("id").Where("name = ? AND path LIKE ?", sr.Group, p.GroupPath+"%").
					OrderExpr("path").Limit(1).Scan(ctx, &ids); err != nil {
					return err
				}
				if len(ids) == 0 {
					fail(sr.Row, httpx.Biz("staff.importGroup", sr.Group))
					continue
				}
				in.GroupID = ids[0]
			}
			n, err := tx.NewSelect().Model((*Employee)(nil)).Where("id_card = ?", in.IDCard).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				fail(sr.Row, httpx.Biz("staff.idCardExists", in.IDCard))
				continue
			}
			inputs = append(inputs, in)
		}
		if !save || len(res.Errors) > 0 {
			return nil
		}
		for i := range inputs {
			if err := s.save(ctx, tx, p, &inputs[i], new(Employee)); err != nil {
				return err
			}
		}
		res.Saved = len(inputs)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(res.Rows) == 0 {
		return nil, httpx.Biz("staff.importEmpty")
	}
	if res.Saved > 0 {
		s.record(r, ModuleEmployee, audit.ActionInsert, "import", 0, audit.Text("oplog.employeeImport", res.Saved))
	}
	return res, nil
}

// Export streams the filtered employees: the import's columns, then expiry state and employment state.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	sel, err := s.empWhere(ctx, p, q)
	if err != nil {
		return nil, nil, err
	}
	head := append(append([]string{}, sheetHead...), "field.staff.expiry", "field.staff.state")
	sh := &xlsx.Sheet{Name: "export.employees", ASCII: "employees", Head: head}
	td := s.today()
	rows := func(emit func([]any) error) error {
		const batch = 500
		sel := sel.OrderExpr("e.name, e.id")
		for off := int64(0); ; off += batch {
			var rs []empRow
			if err := sel.Limit(batch).Offset(off).Scan(ctx, &rs); err != nil {
				return err
			}
			for i := range rs {
				v := rs[i].view(td)
				qk := ""
				if v.QualKind != QualNone {
					qk = i18n.T(lang, "field.staff.qualKind."+strconv.Itoa(v.QualKind))
				}
				if err := emit([]any{v.Name, v.IDCard, v.Phone, roleText(lang, v.Roles), v.GroupName, v.LicenceClasses, v.LicenceExpiry,
					v.QualNo, qk, v.QualExpiry, v.Remark, i18n.T(lang, "field.staff.expiry."+v.Expiry),
					i18n.T(lang, "field.staff.state."+strconv.Itoa(v.State))}); err != nil {
					return err
				}
			}
			if len(rs) < batch {
				return nil
			}
		}
	}
	return sh, rows, nil
}

package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/lock"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// The columns of the lock sheet (import), and the first columns of the export, so that an export serves
// as a template (its locks, being registered, would be refused as such).
var sheetHead = []string{"field.blueLock.serial", "field.blueLock.kind", "field.blueLock.model", "field.blueLock.firmware",
	"field.blueLock.group", "field.remark"}

const (
	maxImportBytes = 4 << 20
	maxImportRows  = 5000
)

// SheetRow is one lock of the sheet.
type SheetRow struct {
	Row      int    `json:"row"`
	Serial   string `json:"serial"`
	Kind     int    `json:"kind"`
	Model    string `json:"model"`
	Firmware string `json:"firmware"`
	Group    string `json:"group"`
	Remark   string `json:"remark"`
}

// RowError is a wrong row with its reason in the reader's language.
type RowError struct {
	Row     int    `json:"row"`
	Message string `json:"message"`
}

// ImportResult is the answer of importPreview and import: the rows, the wrong ones, and how many
// locks were saved (import only; none while any row is wrong).
type ImportResult struct {
	Rows   []SheetRow `json:"rows"`
	Errors []RowError `json:"errors"`
	Saved  int        `json:"saved"`
}

// ParseKind reads a kind cell: 1 / 2, BLE / 4G, or its name in any of the three languages.
func ParseKind(v string) int {
	v = strings.ToUpper(strings.TrimSpace(v))
	switch v {
	case "1", "BLE":
		return int(lock.KindBLE)
	case "2", "4G":
		return int(lock.Kind4G)
	}
	for _, k := range []lock.Kind{lock.KindBLE, lock.Kind4G} {
		for _, l := range []i18n.Lang{i18n.ZhCN, i18n.ZhTW, i18n.EnUS} {
			if strings.ToUpper(i18n.T(l, fmt.Sprintf("field.blueLock.kind.%d", k))) == v {
				return int(k)
			}
		}
	}
	return 0
}

// Import reads the uploaded lock sheet (first row the header when its kind cell is not a kind) and,
// with save and no wrong row, adds every lock in one transaction.
func (s *Service) Import(w http.ResponseWriter, r *http.Request, save bool) (*ImportResult, error) {
	p, lang := httpx.Caller(r), httpx.Lang(r)
	cells, err := xlsx.ReadUpload(w, r, maxImportBytes, "blueLock")
	if err != nil {
		return nil, err
	}
	if len(cells) > maxImportRows+1 {
		return nil, httpx.Biz("blueLock.importTooMany", maxImportRows)
	}
	res := &ImportResult{Rows: []SheetRow{}, Errors: []RowError{}}
	fail := func(row int, err error) {
		msg := i18n.T(lang, "internal")
		var he *httpx.Error
		if errors.As(err, &he) {
			msg = i18n.T(lang, he.Key, he.Args...)
		}
		res.Errors = append(res.Errors, RowError{Row: row, Message: i18n.T(lang, "blueLock.importRow", row, msg)})
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
			if strings.TrimSpace(strings.Join(row, "")) == "" || (i == 0 && ParseKind(c(1)) == 0) {
				continue // empty rows, the header
			}
			sr := SheetRow{Row: i + 1, Serial: NormSerial(c(0)), Kind: ParseKind(c(1)), Model: c(2), Firmware: c(3), Group: c(4), Remark: c(5)}
			res.Rows = append(res.Rows, sr)
			in := Input{Serial: sr.Serial, Kind: sr.Kind, Model: sr.Model, Firmware: sr.Firmware, Remark: sr.Remark}
			if sr.Kind == 0 && c(1) != "" {
				in.Kind = -1 // not a kind: Clean says so
			}
			if err := in.Clean(); err != nil {
				fail(sr.Row, err)
				continue
			}
			if first, dup := seen[in.Serial]; dup {
				fail(sr.Row, httpx.Biz("blueLock.importDuplicate", in.Serial, first))
				continue
			}
			seen[in.Serial] = sr.Row
			if sr.Group != "" {
				var ids []int64
				if err := tx.NewSelect().TableExpr("org_groups").Column("id").Where("name = ? AND path LIKE ?", sr.Group, p.GroupPath+"%").
					OrderExpr("path").Limit(1).Scan(ctx, &ids); err != nil {
					return err
				}
				if len(ids) == 0 {
					fail(sr.Row, httpx.Biz("blueLock.importGroup", sr.Group))
					continue
				}
				in.GroupID = ids[0]
			}
			n, err := tx.NewSelect().Model((*Lock)(nil)).Where("serial = ?", in.Serial).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				fail(sr.Row, httpx.Biz("blueLock.serialExists", in.Serial))
				continue
			}
			inputs = append(inputs, in)
		}
		if !save || len(res.Errors) > 0 {
			return nil
		}
		for i := range inputs {
			if err := s.save(ctx, tx, p, &inputs[i], new(Lock)); err != nil {
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
		return nil, httpx.Biz("blueLock.importEmpty")
	}
	if res.Saved > 0 {
		s.record(r, ModuleLock, audit.ActionInsert, "import", 0, audit.Text("oplog.lockImport", res.Saved))
	}
	return res, nil
}

// exportBatch is how many locks the export reads at a time: it walks the filter by serial (unique) in
// batches, so its memory stays flat and no read stays open while the workbook is written.
const exportBatch = 2000

// Export streams every lock of the filter by serial, without a cap (docs/PERFORMANCE.md).
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	if _, err := s.where(ctx, p, q); err != nil { // validation and scope, answered before the download
		return nil, nil, err
	}
	head := append(append([]string{}, sheetHead...), "field.blueLock.state", "field.blueLock.battery", "field.blueLock.online",
		"field.blueLock.lastEventAt", "field.blueLock.plate", "field.blueLock.compartment", "field.blueLock.device")
	sh := &xlsx.Sheet{Name: "export.blueLock", ASCII: "locks", Head: head}
	each := func(emit func([]any) error) error {
		after := ""
		for first := true; ; first = false {
			sel, err := s.where(ctx, p, q)
			if err != nil {
				return err
			}
			if !first {
				sel = sel.Where("l.serial > ?", after)
			}
			var rows []lockRow
			if err := sel.OrderExpr("l.serial, l.id").Limit(exportBatch).Scan(ctx, &rows); err != nil {
				return err
			}
			for i := range rows {
				if err := emit(exportRow(lang, &rows[i])); err != nil {
					return err
				}
			}
			if len(rows) < exportBatch {
				return nil
			}
			after = rows[len(rows)-1].Serial
		}
	}
	return sh, each, nil
}

func exportRow(lang i18n.Lang, r *lockRow) []any {
	const unknown = "—"
	v := r.view()
	battery, online := any(unknown), unknown
	if v.BatteryPct != nil {
		battery = *v.BatteryPct
	}
	if v.Online != nil {
		online = i18n.T(lang, map[bool]string{true: "field.blueLock.isOnline", false: "field.blueLock.isOffline"}[*v.Online])
	}
	comp, dev := any(""), ""
	if v.CarID != nil {
		comp, dev = v.Compartment, i18n.T(lang, "field."+deviceKey(lock.Device(v.Device)))
	}
	return []any{v.Serial, i18n.T(lang, fmt.Sprintf("field.blueLock.kind.%d", v.Kind)), v.Model, v.Firmware, v.GroupName,
		v.Remark, i18n.T(lang, fmt.Sprintf("field.blueLock.state.%d", v.State)), battery, online, v.LastEventAt, v.Plate, comp, dev}
}

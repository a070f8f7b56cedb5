package equipment

import (
	"context"
	"unicode/utf8"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/settings/codes"
)

// kindJoin joins a row's kind (column col) to its code list item, so that lists sort kinds in the
// list's order (kindOrder); a kind no longer in the list sorts last.
func kindJoin(col string) string {
	return "LEFT JOIN code_items AS ck ON ck.type = '" + KindList + "' AND ck.code = " + col
}

const kindOrder = "COALESCE(ck.sort, 99999)"

// maxKind is the longest code the code list takes.
const maxKind = 32

// cleanKind checks that a kind is given and could be a code; whether the list has it is checkKind's.
func cleanKind(k Kind) error {
	if k == "" {
		return httpx.Required("equipment.kind")
	}
	if utf8.RuneCountInString(string(k)) > maxKind {
		return httpx.Invalid("equipment.kind")
	}
	return nil
}

// kinds is the device kind code list (codes.Defaults without a code list service: the part's tests).
func (s *Service) kinds(ctx context.Context) ([]codes.Item, error) {
	if s.Codes == nil {
		return codes.Defaults(KindList), nil
	}
	return s.Codes.Items(ctx, KindList)
}

// checkKind accepts a mirrored kind (its devices are in their registers whatever the list says; the
// list pins it), an enabled kind of the list, or held (the kind the record already holds, which stays
// valid when it was disabled since).
func (s *Service) checkKind(ctx context.Context, k, held Kind) error {
	if err := cleanKind(k); err != nil {
		return err
	}
	if k.Mirrored() {
		return nil
	}
	items, err := s.kinds(ctx)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.Code == string(k) && (it.Enabled || k == held) {
			return nil
		}
	}
	return httpx.Biz("equipment.kindUnknown", string(k))
}

// heldKind is the kind stored on row id of table (” when there is none).
func (s *Service) heldKind(ctx context.Context, table string, id int64) Kind {
	var k string
	if id > 0 {
		_ = s.db.NewSelect().Table(table).Column("kind").Where("id = ?", id).Scan(ctx, &k)
	}
	return Kind(k)
}

// kindItem is the list's item of kind k (nil once the list no longer has it).
func kindItem(items []codes.Item, k Kind) *codes.Item {
	for i := range items {
		if items[i].Code == string(k) {
			return &items[i]
		}
	}
	return nil
}

// kindLabel is kind k's label in lang (its code once the list no longer has it).
func kindLabel(items []codes.Item, lang i18n.Lang, k Kind) string {
	if it := kindItem(items, k); it != nil {
		return it.Label(lang.String())
	}
	return string(k)
}

// kindLog is kind k as the operation log keeps it: its labels at the time of the change.
func (s *Service) kindLog(ctx context.Context, k Kind) audit.Label {
	items, _ := s.kinds(ctx)
	if it := kindItem(items, k); it != nil {
		return audit.Label{it.LabelZh, it.LabelTw, it.LabelEn}
	}
	return audit.Label{string(k), string(k), string(k)}
}

// CountByKind counts the devices and models of a kind (the code list's usage check: a kind in use is
// not deleted).
func (s *Service) CountByKind(ctx context.Context, code string) (int, error) {
	n := 0
	for _, m := range []any{(*Device)(nil), (*Model)(nil)} {
		c, err := s.db.NewSelect().Model(m).Where("kind = ?", code).Count(ctx)
		if err != nil {
			return 0, err
		}
		n += int(c)
	}
	return n, nil
}

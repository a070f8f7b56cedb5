// Package codes is the code lists other pages read (access/baseType): vehicle classes, fuel types,
// station types, fault types, equipment kinds, licence classes, leave kinds. Administrators of the
// platform edit them at run time; pages read them through Items (Go) or useCodeList (console).
package codes

import "github.com/uptrace/bun"

// Permission codes of access/baseType (internal/org/menu.json).
const (
	CodePage   = "06-02"
	CodeAdd    = "06-02-01"
	CodeEdit   = "06-02-02"
	CodeDelete = "06-02-03"
)

// Item is one entry of a code list.
type Item struct {
	bun.BaseModel `bun:"table:code_items"`

	ID        int64  `bun:"id,pk,autoincrement" json:"id"`
	Type      string `bun:"type" json:"type"`
	Code      string `bun:"code" json:"code"`
	LabelZh   string `bun:"label_zh" json:"labelZh"`
	LabelTw   string `bun:"label_tw" json:"labelTw"`
	LabelEn   string `bun:"label_en" json:"labelEn"`
	Sort      int    `bun:"sort" json:"sort"`
	Enabled   bool   `bun:"enabled" json:"enabled"`
	Builtin   bool   `bun:"builtin" json:"builtin"` // seeded: it can be disabled, never deleted (D66)
	UpdatedAt int64  `bun:"updated_at" json:"updatedAt"`
	// Pinned (not stored): a part's behaviour rests on the item, so it can be renamed but never
	// disabled or deleted; the page greys those actions out in advance.
	Pinned bool `bun:"-" json:"pinned"`
}

// Label returns the item's label in lang ("zh-CN", "zh-TW", "en-US"), falling back to the Chinese.
func (it Item) Label(lang string) string {
	switch {
	case lang == "zh-TW" && it.LabelTw != "":
		return it.LabelTw
	case lang == "en-US" && it.LabelEn != "":
		return it.LabelEn
	}
	return it.LabelZh
}

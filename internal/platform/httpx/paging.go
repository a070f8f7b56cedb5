package httpx

import "strings"

// PageReq is the common part of a paging request.
type PageReq struct {
	PageNum   int    `json:"pageNum"`
	PageSize  int    `json:"pageSize"`
	SortField string `json:"sortField"`
	SortOrder string `json:"sortOrder"`
}

// Page is the paging response.
type Page[T any] struct {
	List     []T `json:"list"`
	Total    int `json:"total"`
	PageNum  int `json:"pageNum"`
	PageSize int `json:"pageSize"`
}

// Normalize applies defaults (pageNum 1, pageSize 10) and checks ranges (pageSize 1–500).
func (p *PageReq) Normalize() error {
	if p.PageNum == 0 {
		p.PageNum = 1
	}
	if p.PageSize == 0 {
		p.PageSize = 10
	}
	if p.PageNum < 1 || p.PageNum > 1_000_000 {
		return Biz("field.range", Field("pageNum"), 1, 1_000_000)
	}
	if p.PageSize < 1 || p.PageSize > 500 {
		return Biz("field.range", Field("pageSize"), 1, 500)
	}
	switch p.SortOrder {
	case "", "ascend", "descend":
	default:
		return Invalid("sortOrder")
	}
	return nil
}

// Offset is the row offset of the page.
func (p PageReq) Offset() int64 { return int64(p.PageNum-1) * int64(p.PageSize) }

// Limit is the page size.
func (p PageReq) Limit() int64 { return int64(p.PageSize) }

// OrderBy returns "column ASC|DESC" for sortField mapped through columns, or def when no sort is
// requested. An unknown sortField is a validation error.
func (p PageReq) OrderBy(columns map[string]string, def string) (string, error) {
	if p.SortField == "" {
		return def, nil
	}
	col, ok := columns[p.SortField]
	if !ok {
		return "", Invalid("sortField")
	}
	dir := "ASC"
	if strings.EqualFold(p.SortOrder, "descend") {
		dir = "DESC"
	}
	return col + " " + dir, nil
}

// NewPage builds a page response; a nil list becomes [].
func NewPage[T any](list []T, total int64, p PageReq) Page[T] {
	if list == nil {
		list = []T{}
	}
	return Page[T]{List: list, Total: int(total), PageNum: p.PageNum, PageSize: p.PageSize}
}

package messaging

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// SentQuery filters the sent messages of the caller's scope.
type SentQuery struct {
	httpx.PageReq
	Title      string     `json:"title"`
	SenderName string     `json:"senderName"`
	StartTime  httpx.Time `json:"startTime"`
	EndTime    httpx.Time `json:"endTime"`
}

// SentView is one row of the message page.
type SentView struct {
	ID         int64      `json:"id"`
	Title      string     `json:"title"`
	Content    string     `json:"content"`
	SenderName string     `json:"senderName"`
	Targets    Targets    `json:"targets"`
	Recipients int        `json:"recipients"`
	Read       int        `json:"read"`
	CreatedAt  httpx.Time `json:"createdAt"`
}

var sentSort = map[string]string{"createdAt": "created_at", "title": "title", "id": "id"}

func (m *Messages) sentWhere(p *httpx.Principal, f SentQuery) *bun.SelectQuery {
	q := m.db.NewSelect().Model((*messageRow)(nil)).Where("group_path LIKE ?", p.GroupPath+"%")
	if s := strings.TrimSpace(f.Title); s != "" {
		q = q.Where(db.Contains("title", s))
	}
	if s := strings.TrimSpace(f.SenderName); s != "" {
		q = q.Where(db.Contains("sender_name", s))
	}
	if f.StartTime != 0 {
		q = q.Where("created_at >= ?", int64(f.StartTime))
	}
	if f.EndTime != 0 {
		q = q.Where("created_at <= ?", f.EndTime.Through())
	}
	return q
}

// Page lists messages sent by users of the caller's scope, newest first.
func (m *Messages) Page(ctx context.Context, p *httpx.Principal, f SentQuery) (httpx.Page[SentView], error) {
	if err := f.Normalize(); err != nil {
		return httpx.Page[SentView]{}, err
	}
	order, err := f.OrderBy(sentSort, "id DESC")
	if err != nil {
		return httpx.Page[SentView]{}, err
	}
	var rows []messageRow
	n, err := m.sentWhere(p, f).OrderExpr(order).Limit(f.Limit()).Offset(f.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return httpx.Page[SentView]{}, err
	}
	views, err := m.sentViews(ctx, rows)
	return httpx.NewPage(views, int64(n), f.PageReq), err
}

// maxExportRows bounds one export.
const maxExportRows = 100_000

// Export writes the filtered sent messages as an xlsx workbook.
func (m *Messages) Export(ctx context.Context, w http.ResponseWriter, r *http.Request, p *httpx.Principal, f SentQuery) error {
	var rows []messageRow
	if err := m.sentWhere(p, f).OrderExpr("id DESC").Limit(maxExportRows).Scan(ctx, &rows); err != nil {
		return err
	}
	views, err := m.sentViews(ctx, rows)
	if err != nil {
		return err
	}
	lang := httpx.Lang(r)
	sep := i18n.T(lang, "message.listSeparator")
	sh := &xlsx.Sheet{Name: "export.messages", ASCII: "system-messages",
		Head: []string{"col.createdAt", "field.title", "field.message.content", "col.message.sender", "col.message.targets", "col.message.recipients", "col.message.read"}}
	for _, v := range views {
		targets := make([]string, 0, len(v.Targets.Groups)+len(v.Targets.Users))
		for _, g := range v.Targets.Groups {
			targets = append(targets, i18n.T(lang, "message.groupTarget", g))
		}
		targets = append(targets, v.Targets.Users...)
		sh.Rows = append(sh.Rows, []any{v.CreatedAt.String(), v.Title, v.Content, v.SenderName, strings.Join(targets, sep), v.Recipients, v.Read})
	}
	return xlsx.Write(w, r, sh)
}

func (m *Messages) sentViews(ctx context.Context, rows []messageRow) ([]SentView, error) {
	read := map[int64]int{}
	if len(rows) > 0 {
		ids := make([]int64, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		var counts []struct {
			MessageID int64 `bun:"message_id"`
			N         int   `bun:"n"`
		}
		if err := m.db.NewSelect().TableExpr("message_recipients").ColumnExpr("message_id, COUNT(*) AS n").
			Where("message_id IN (?)", bun.In(ids)).Where("read_at IS NOT NULL").Group("message_id").Scan(ctx, &counts); err != nil {
			return nil, err
		}
		for _, c := range counts {
			read[c.MessageID] = c.N
		}
	}
	out := make([]SentView, len(rows))
	for i, r := range rows {
		var t Targets
		_ = json.Unmarshal([]byte(r.Targets), &t)
		out[i] = SentView{ID: r.ID, Title: r.Title, Content: r.Content, SenderName: r.SenderName, Targets: t,
			Recipients: r.Recipients, Read: read[r.ID], CreatedAt: httpx.Time(r.CreatedAt)}
	}
	return out, nil
}

// ReceivedQuery pages the caller's own messages.
type ReceivedQuery struct {
	httpx.PageReq
	Unread bool `json:"unread"`
}

// ReceivedView is one message the caller received.
type ReceivedView struct {
	ID         int64      `json:"id"`
	Title      string     `json:"title"`
	Content    string     `json:"content"`
	SenderName string     `json:"senderName"`
	CreatedAt  httpx.Time `json:"createdAt"`
	ReadAt     httpx.Time `json:"readAt"`
}

// Received lists the system messages sent to the caller, newest first.
func (m *Messages) Received(ctx context.Context, p *httpx.Principal, f ReceivedQuery) (httpx.Page[ReceivedView], error) {
	if err := f.Normalize(); err != nil {
		return httpx.Page[ReceivedView]{}, err
	}
	var rows []struct {
		ID         int64  `bun:"id"`
		Title      string `bun:"title"`
		Content    string `bun:"content"`
		SenderName string `bun:"sender_name"`
		CreatedAt  int64  `bun:"created_at"`
		ReadAt     *int64 `bun:"read_at"`
	}
	q := m.db.NewSelect().TableExpr("message_recipients AS r").Join("JOIN messages AS m ON m.id = r.message_id").
		ColumnExpr("m.id, m.title, m.content, m.sender_name, m.created_at, r.read_at").Where("r.user_id = ?", p.UserID)
	if f.Unread {
		q = q.Where("r.read_at IS NULL")
	}
	n, err := q.OrderExpr("m.id DESC").Limit(f.Limit()).Offset(f.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return httpx.Page[ReceivedView]{}, err
	}
	out := make([]ReceivedView, len(rows))
	for i, r := range rows {
		out[i] = ReceivedView{ID: r.ID, Title: r.Title, Content: r.Content, SenderName: r.SenderName, CreatedAt: httpx.Time(r.CreatedAt)}
		if r.ReadAt != nil {
			out[i].ReadAt = httpx.Time(*r.ReadAt)
		}
	}
	return httpx.NewPage(out, int64(n), f.PageReq), nil
}

// MarkRead marks the caller's own copies of messages ids as read; other users' copies are untouched.
func (m *Messages) MarkRead(ctx context.Context, p *httpx.Principal, ids []int64) (int, error) {
	if len(ids) == 0 {
		return 0, httpx.Required("ids")
	}
	res, err := m.db.NewUpdate().TableExpr("message_recipients").Set("read_at = ?", m.Now().UnixMilli()).
		Where("user_id = ?", p.UserID).Where("message_id IN (?)", bun.In(ids)).Where("read_at IS NULL").Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// UserOption is a user the caller may write to.
type UserOption struct {
	ID        int64  `json:"id" bun:"id"`
	Name      string `json:"name" bun:"name"`
	NickName  string `json:"nickName" bun:"nick_name"`
	GroupName string `json:"groupName" bun:"group_name"`
	Online    bool   `json:"online" bun:"-"`
}

// Users lists the enabled users of the caller's scope (matching name, at most 500) with their
// presence, for the recipient picker.
func (m *Messages) Users(ctx context.Context, p *httpx.Principal, name string) ([]UserOption, error) {
	q := m.activeUsers(m.db.NewSelect()).ColumnExpr("u.name, u.nick_name, g.name AS group_name").
		Where("g.path LIKE ?", p.GroupPath+"%")
	if s := strings.TrimSpace(name); s != "" {
		byName, arg := db.Contains("u.name", s)
		byNick, _ := db.Contains("u.nick_name", s)
		q = q.Where("("+byName+" OR "+byNick+")", arg, arg)
	}
	out := []UserOption{}
	if err := q.OrderExpr("u.id").Limit(maxPickerUsers).Scan(ctx, &out); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Online = m.presence != nil && m.presence.IsOnline(out[i].ID)
	}
	return out, nil
}

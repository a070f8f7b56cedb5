package messaging

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
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

// Page lists messages sent by users of the caller's scope, newest first.
func (m *Messages) Page(ctx context.Context, p *httpx.Principal, f SentQuery) (httpx.Page[SentView], error) {
	if err := f.Normalize(); err != nil {
		return httpx.Page[SentView]{}, err
	}
	order, err := f.OrderBy(sentSort, "id DESC")
	if err != nil {
		return httpx.Page[SentView]{}, err
	}
	q := m.db.NewSelect().Model((*messageRow)(nil)).Where("group_path LIKE ?", p.GroupPath+"%")
	if s := strings.TrimSpace(f.Title); s != "" {
		q = q.Where("title LIKE ?", "%"+s+"%")
	}
	if s := strings.TrimSpace(f.SenderName); s != "" {
		q = q.Where("sender_name LIKE ?", "%"+s+"%")
	}
	if f.StartTime != 0 {
		q = q.Where("created_at >= ?", int64(f.StartTime))
	}
	if f.EndTime != 0 {
		q = q.Where("created_at <= ?", int64(f.EndTime))
	}
	var rows []messageRow
	n, err := q.OrderExpr(order).Limit(f.Limit()).Offset(f.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return httpx.Page[SentView]{}, err
	}
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
			return httpx.Page[SentView]{}, err
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
	return httpx.NewPage(out, int64(n), f.PageReq), nil
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
		q = q.Where("(u.name LIKE ? OR u.nick_name LIKE ?)", "%"+s+"%", "%"+s+"%")
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

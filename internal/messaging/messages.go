package messaging

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
	"google.golang.org/protobuf/proto"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/proto/chatpb"
)

// System messages (the `message` page, menu 06-01): an operator sends a title and a text to users
// and/or groups of their scope (a group means every user of its subtree). Each message is stored with
// its recipients and their read state, then pushed live on msg/user/{id} as the binary ChatMessage
// (action "system"); alarms and other pushes use the JSON Message, and the console tells the two apart.

// Limits of a system message.
const (
	MaxTitle       = 64
	MaxContent     = 1000
	MaxRecipients  = 10_000 // users one message may reach
	maxPickerUsers = 500
)

// ActionSystem is the ChatMessage action of a system message.
const ActionSystem = "system"

// Presence tells whether a user has a live connection (the Broker).
type Presence interface {
	IsOnline(userID int64) bool
}

// Messages stores and sends system messages.
type Messages struct {
	db       *db.DB
	pub      Publisher
	presence Presence
	log      *slog.Logger
	Now      func() time.Time
}

// NewMessages returns the service; pub delivers the messages, presence marks online users (either may
// be nil: nothing is pushed, nobody is online).
func NewMessages(d *db.DB, pub Publisher, presence Presence, log *slog.Logger) *Messages {
	if log == nil {
		log = slog.Default()
	}
	return &Messages{db: d, pub: pub, presence: presence, log: log, Now: time.Now}
}

type messageRow struct {
	bun.BaseModel `bun:"table:messages"`

	ID         int64  `bun:"id,pk,autoincrement"`
	SenderID   int64  `bun:"sender_id"`
	SenderName string `bun:"sender_name"`
	GroupPath  string `bun:"group_path"`
	Title      string `bun:"title"`
	Content    string `bun:"content"`
	Targets    string `bun:"targets"`
	Recipients int    `bun:"recipients"`
	CreatedAt  int64  `bun:"created_at"`
}

type recipientRow struct {
	bun.BaseModel `bun:"table:message_recipients"`

	MessageID int64  `bun:"message_id,pk"`
	UserID    int64  `bun:"user_id,pk"`
	ReadAt    *int64 `bun:"read_at"`
}

// Targets names what the sender chose, as shown on the page.
type Targets struct {
	Users  []string `json:"users"`
	Groups []string `json:"groups"`
}

// SendInput is the send call's body.
type SendInput struct {
	Title    string  `json:"title"`
	Content  string  `json:"content"`
	UserIDs  []int64 `json:"userIds"`
	GroupIDs []int64 `json:"groupIds"`
}

// SendResult tells how many users the message reached.
type SendResult struct {
	ID         int64 `json:"id"`
	Recipients int   `json:"recipients"`
	Online     int   `json:"online"`
}

func (in *SendInput) clean() error {
	in.Title, in.Content = strings.TrimSpace(in.Title), strings.TrimSpace(in.Content)
	switch {
	case in.Title == "":
		return httpx.Required("title")
	case utf8.RuneCountInString(in.Title) > MaxTitle:
		return httpx.Biz("field.maxLen", httpx.Field("title"), MaxTitle)
	case in.Content == "":
		return httpx.Required("message.content")
	case utf8.RuneCountInString(in.Content) > MaxContent:
		return httpx.Biz("field.maxLen", httpx.Field("message.content"), MaxContent)
	case len(in.UserIDs) == 0 && len(in.GroupIDs) == 0:
		return httpx.Required("message.recipients")
	case len(in.UserIDs) > MaxRecipients || len(in.GroupIDs) > MaxRecipients:
		return httpx.Invalid("message.recipients")
	}
	return nil
}

type named struct {
	ID   int64  `bun:"id"`
	Name string `bun:"name"`
	Path string `bun:"path"`
}

// Send stores the message for the chosen users and the users of the chosen groups' subtrees, all of
// which must lie in the caller's scope, and pushes it to them.
func (m *Messages) Send(ctx context.Context, p *httpx.Principal, in SendInput) (*SendResult, error) {
	if err := in.clean(); err != nil {
		return nil, err
	}
	var targets Targets
	ids := map[int64]bool{}
	if len(in.UserIDs) > 0 {
		var users []named
		err := m.db.NewSelect().TableExpr("users AS u").ColumnExpr("u.id, CASE WHEN u.nick_name <> '' THEN u.nick_name ELSE u.name END AS name, g.path").
			Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id IN (?)", bun.In(in.UserIDs)).OrderExpr("u.id").Scan(ctx, &users)
		if err != nil {
			return nil, err
		}
		if len(users) != len(dedupe(in.UserIDs)) {
			return nil, httpx.Invalid("message.recipients")
		}
		for _, u := range users {
			if !strings.HasPrefix(u.Path, p.GroupPath) {
				return nil, httpx.ErrScope
			}
			targets.Users = append(targets.Users, u.Name)
		}
		var active []int64
		if err := m.activeUsers(m.db.NewSelect()).Where("u.id IN (?)", bun.In(in.UserIDs)).Scan(ctx, &active); err != nil {
			return nil, err
		}
		for _, id := range active {
			ids[id] = true
		}
	}
	if len(in.GroupIDs) > 0 {
		var groups []named
		if err := m.db.NewSelect().TableExpr("org_groups").Column("id", "name", "path").Where("id IN (?)", bun.In(in.GroupIDs)).
			OrderExpr("id").Scan(ctx, &groups); err != nil {
			return nil, err
		}
		if len(groups) != len(dedupe(in.GroupIDs)) {
			return nil, httpx.Invalid("message.recipients")
		}
		for _, g := range groups {
			if !strings.HasPrefix(g.Path, p.GroupPath) {
				return nil, httpx.ErrScope
			}
			targets.Groups = append(targets.Groups, g.Name)
			var active []int64
			if err := m.activeUsers(m.db.NewSelect()).Where("g.path LIKE ?", g.Path+"%").Scan(ctx, &active); err != nil {
				return nil, err
			}
			for _, id := range active {
				ids[id] = true
			}
		}
	}
	if len(ids) == 0 {
		return nil, httpx.Biz("message.noRecipients")
	}
	if len(ids) > MaxRecipients {
		return nil, httpx.Invalid("message.recipients")
	}
	sender, err := m.senderName(ctx, p)
	if err != nil {
		return nil, err
	}
	tj, _ := json.Marshal(targets)
	row := &messageRow{SenderID: p.UserID, SenderName: sender, GroupPath: p.GroupPath, Title: in.Title, Content: in.Content,
		Targets: string(tj), Recipients: len(ids), CreatedAt: m.Now().UnixMilli()}
	recipients := make([]int64, 0, len(ids))
	for id := range ids {
		recipients = append(recipients, id)
	}
	err = m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return err
		}
		rows := make([]recipientRow, 0, len(recipients))
		for _, id := range recipients {
			rows = append(rows, recipientRow{MessageID: row.ID, UserID: id})
		}
		for i := 0; i < len(rows); i += 500 {
			chunk := rows[i:min(i+500, len(rows))]
			if _, err := tx.NewInsert().Model(&chunk).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &SendResult{ID: row.ID, Recipients: len(recipients)}
	for _, id := range recipients {
		if m.presence != nil && m.presence.IsOnline(id) {
			res.Online++
		}
	}
	m.push(row, recipients)
	return res, nil
}

// push delivers a stored message; a failed push is logged: the message stays readable in the list.
func (m *Messages) push(row *messageRow, recipients []int64) {
	if m.pub == nil {
		return
	}
	for _, id := range recipients {
		b, err := proto.Marshal(&chatpb.ChatMessage{Id: row.ID, Action: ActionSystem, Title: row.Title, Content: row.Content,
			Sender: row.SenderName, Receiver: strconv.FormatInt(id, 10), Timestamp: row.CreatedAt})
		if err == nil {
			err = m.pub.Publish(UserTopic(TopicMsg, id), b)
		}
		if err != nil {
			m.log.Warn("system message not pushed", "message", row.ID, "user", id, "err", err)
		}
	}
}

// activeUsers selects the ids of enabled, unexpired users (alias u, their group g).
func (m *Messages) activeUsers(q *bun.SelectQuery) *bun.SelectQuery {
	return q.TableExpr("users AS u").ColumnExpr("u.id").Join("JOIN org_groups AS g ON g.id = u.group_id").
		Where("u.status = 1").Where("(u.expire_at IS NULL OR u.expire_at > ?)", m.Now().UnixMilli())
}

func (m *Messages) senderName(ctx context.Context, p *httpx.Principal) (string, error) {
	var nick string
	err := m.db.NewSelect().TableExpr("users").ColumnExpr("nick_name").Where("id = ?", p.UserID).Scan(ctx, &nick)
	if err != nil && !strings.Contains(err.Error(), "no rows") {
		return "", err
	}
	if nick == "" {
		nick = p.UserName
	}
	return nick, nil
}

func dedupe(ids []int64) map[int64]bool {
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

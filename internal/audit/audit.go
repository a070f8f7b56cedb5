// Package audit records the operation log (who did what to which record) and the console's error log.
package audit

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Modules and actions recorded in the operation log (catalogue keys module.* and action.*).
const (
	ModuleAuth  = "auth"
	ModuleUser  = "user"
	ModuleRole  = "role"
	ModuleGroup = "group"

	ActionLogin          = "login"
	ActionLogout         = "logout"
	ActionPasswordUpdate = "passwordUpdate"
	ActionInsert         = "insert"
	ActionUpdate         = "update"
	ActionDelete         = "delete"
	ActionResetPassword  = "resetPassword"
	ActionStatus         = "status"
	ActionLogo           = "logo"
	ActionSettings       = "settings"
	ActionLock           = "lock"   // sign-in locked for an address after repeated wrong passwords
	ActionUnlock         = "unlock" // an administrator lifted the sign-in locks of a user
)

// OpLog is one operation log row.
type OpLog struct {
	bun.BaseModel `bun:"table:operation_logs"`

	ID        int64      `bun:"id,pk,autoincrement" json:"id"`
	UserID    int64      `bun:"user_id" json:"userId"`
	UserName  string     `bun:"user_name" json:"userName"`
	GroupID   int64      `bun:"group_id" json:"groupId"`
	GroupPath string     `bun:"group_path" json:"-"`
	Module    string     `bun:"module" json:"module"`
	Action    string     `bun:"action" json:"action"`
	Target    string     `bun:"target" json:"target"`
	TargetID  int64      `bun:"target_id" json:"targetId"`
	Detail    string     `bun:"detail" json:"detail"`
	IP        string     `bun:"ip" json:"ip"`
	CreatedAt httpx.Time `bun:"created_at" json:"createdAt"`

	// In the reader's language (Render): module, action, target and detail as the console shows them;
	// module and action above stay codes for the filters.
	ModuleName string `bun:"-" json:"moduleName"`
	ActionName string `bun:"-" json:"actionName"`
	TargetText string `bun:"-" json:"targetText"`
	DetailText string `bun:"-" json:"detailText"`
}

// localise fills the reader's-language fields of o.
func (o *OpLog) localise(l i18n.Lang) {
	o.ModuleName, o.ActionName = tr(l, "module."+o.Module), tr(l, "action."+o.Action)
	o.TargetText, o.DetailText = Render(l, o.Module, o.Action, o.Target), Render(l, o.Module, o.Action, o.Detail)
}

// Log writes operation and error log entries.
type Log struct {
	db      *db.DB
	now     func() time.Time
	reports errLimiter
}

// New returns the audit log over d.
func New(d *db.DB) *Log { return &Log{db: d, now: time.Now} }

// Entry describes one operation.
type Entry struct {
	Module, Action, Target, Detail string
	TargetID                       int64
}

// Record writes e for the caller of r (its principal, or actor when given for sign-in). Failures are
// logged, never returned: the operation already happened.
func (l *Log) Record(ctx context.Context, r *http.Request, actor *httpx.Principal, e Entry) {
	if actor == nil {
		actor = httpx.Caller(r)
	}
	row := &OpLog{Module: e.Module, Action: e.Action, Target: e.Target, TargetID: e.TargetID, Detail: e.Detail,
		CreatedAt: httpx.TimeOf(l.now())}
	if r != nil {
		row.IP = httpx.ClientIP(r)
	}
	if actor != nil {
		row.UserID, row.UserName, row.GroupID, row.GroupPath = actor.UserID, actor.UserName, actor.GroupID, actor.GroupPath
	}
	if _, err := l.db.NewInsert().Model(row).Exec(ctx); err != nil {
		slog.ErrorContext(ctx, "operation log", "err", err, "module", e.Module, "action", e.Action)
	}
}

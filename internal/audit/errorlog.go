package audit

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// ErrorLog is one console error report.
type ErrorLog struct {
	bun.BaseModel `bun:"table:error_logs"`

	ID        int64  `bun:"id,pk,autoincrement"`
	Type      string `bun:"type"`
	Code      string `bun:"code"`
	Message   string `bun:"message"`
	URL       string `bun:"url"`
	Time      string `bun:"time"`
	UserID    *int64 `bun:"user_id"`
	IP        string `bun:"ip"`
	CreatedAt int64  `bun:"created_at"`
}

// ErrorReport is the body of errorLog/add. code may be a number or a string.
type ErrorReport struct {
	Type    string `json:"type"`
	Code    any    `json:"code"`
	Message string `json:"message"`
	URL     string `json:"url"`
	Time    string `json:"time"`
}

// Error log limits: field sizes, and reports per address per minute.
const (
	maxErrorField   = 2000
	errorsPerMinute = 30
)

// errLimiter limits error reports per address (fixed one-minute windows, in memory).
type errLimiter struct {
	mu     sync.Mutex
	window int64
	counts map[string]int
}

func (e *errLimiter) allow(ip string, now time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	w := now.Unix() / 60
	if w != e.window || e.counts == nil {
		e.window, e.counts = w, map[string]int{}
	}
	e.counts[ip]++
	return e.counts[ip] <= errorsPerMinute
}

func clip(s string) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) > maxErrorField {
		s = s[:maxErrorField]
		s = strings.ToValidUTF8(s, "")
	}
	return s
}

// AddError stores a console error report; p may be nil.
func (l *Log) AddError(ctx context.Context, ip string, p *httpx.Principal, rep ErrorReport) error {
	if !l.reports.allow(ip, l.now()) {
		return httpx.Biz("errorLog.rateLimited")
	}
	code := ""
	switch v := rep.Code.(type) {
	case string:
		code = v
	case nil:
	default:
		code = strings.TrimSpace(strings.Trim(fmtAny(v), `"`))
	}
	row := &ErrorLog{Type: clip(rep.Type), Code: clip(code), Message: clip(rep.Message), URL: clip(rep.URL),
		Time: clip(rep.Time), IP: ip, CreatedAt: l.now().UnixMilli()}
	if p != nil {
		id := p.UserID
		row.UserID = &id
	}
	_, err := l.db.NewInsert().Model(row).Exec(ctx)
	return err
}

package httpx

import (
	"context"
	"net/http"
	"strings"
)

// Principal is the signed-in caller.
type Principal struct {
	UserID    int64
	UserName  string
	GroupID   int64
	GroupPath string // materialized path of the caller's group, e.g. "/1/3/"
	Codes     map[string]bool
	TokenHash string
	// Platform: the caller's group is the platform group, the first top-level group (the one the first
	// administrator is created in). Platform-wide settings are changed only from there (D29).
	Platform bool
	// TimeZone is the user's own zone (userSetting/edit; "" the platform's): exports write times in it (D90).
	TimeZone string
}

// Has reports whether the caller holds code.
func (p *Principal) Has(code string) bool { return p != nil && p.Codes[code] }

// PlatformAdmin reports whether the caller is a platform administrator for the setting guarded by code:
// a user of the platform group holding code (D29). A subsidiary's administrator, whatever their codes,
// is not one; neither is a platform user whose roles lack code (a dispatcher).
func (p *Principal) PlatformAdmin(code string) bool { return p != nil && p.Platform && p.Has(code) }

// Company is the caller's company: the first segment of its group path (see CompanyPath).
func (p *Principal) Company() string {
	if p == nil {
		return ""
	}
	return CompanyPath(p.GroupPath)
}

// CompanyPath is the first segment of a group path, the company: "/1/3/7/" → "/1/". Company-wide
// things (stations as named places and fences) are shared by a company's groups, never across
// companies. A malformed path has no company ("").
func CompanyPath(path string) string {
	if len(path) < 2 || path[0] != '/' {
		return ""
	}
	if i := strings.IndexByte(path[1:], '/'); i >= 0 {
		return path[:i+2]
	}
	return ""
}

// InScope reports whether a group with the given path lies in the caller's subtree.
func (p *Principal) InScope(groupPath string) bool {
	return p != nil && p.GroupPath != "" && strings.HasPrefix(groupPath, p.GroupPath)
}

type principalKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Caller returns the request's principal, or nil.
func Caller(r *http.Request) *Principal { return PrincipalFrom(r.Context()) }

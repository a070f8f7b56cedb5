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
}

// Has reports whether the caller holds code.
func (p *Principal) Has(code string) bool { return p != nil && p.Codes[code] }

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

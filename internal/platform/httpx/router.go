package httpx

import (
	"net/http"
	"strings"
)

// AccessKind says who may call a route.
type AccessKind int

const (
	// Undeclared is the zero value: a route that forgot to declare its access (refused by Mount).
	Undeclared AccessKind = iota
	// Public needs no token.
	Public
	// Optional needs no token, but a valid one identifies the caller.
	Optional
	// Authenticated needs a valid token and no particular code.
	Authenticated
	// Code needs a valid token and any one of the listed permission codes.
	Code
)

// Access is a route's access declaration.
type Access struct {
	Kind  AccessKind
	Codes []string
}

// PublicAccess, OptionalAuth, SignedIn and Needs build declarations.
var (
	PublicAccess = Access{Kind: Public}
	OptionalAuth = Access{Kind: Optional}
	SignedIn     = Access{Kind: Authenticated}
)

// Needs requires any one of codes.
func Needs(codes ...string) Access { return Access{Kind: Code, Codes: codes} }

// String describes the access for logs and tests.
func (a Access) String() string {
	switch a.Kind {
	case Public:
		return "public"
	case Optional:
		return "optional"
	case Authenticated:
		return "authenticated"
	case Code:
		return "code:" + strings.Join(a.Codes, "|")
	}
	return "undeclared"
}

// Route is one endpoint: its pattern, its access declaration and its handler. Route tables are data so
// tests can iterate every endpoint.
type Route struct {
	Method  string
	Path    string
	Access  Access
	Handler http.HandlerFunc
	// Scoped marks endpoints that take record ids (query, path or body) subject to the data scope.
	Scoped bool
	// QueryToken lets the token come as ?token= when there is no Authorization header: browsers
	// cannot set headers on a WebSocket. Same checks, same 401 / 403 answers.
	QueryToken bool
}

// Pattern is the ServeMux pattern.
func (rt Route) Pattern() string { return rt.Method + " " + rt.Path }

// Guard resolves tokens to principals.
type Guard interface {
	// Authenticate returns the caller for the request's bearer token, or nil when there is no valid one.
	Authenticate(r *http.Request) (*Principal, error)
}

// Handle wraps a route's handler with its access check.
func Handle(g Guard, rt Route) http.Handler {
	if rt.Access.Kind == Undeclared || rt.Handler == nil {
		panic("httpx: route " + rt.Pattern() + " has no access declaration or handler")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch rt.Access.Kind {
		case Public:
			rt.Handler(w, r)
			return
		case Optional:
			if BearerToken(r) != "" {
				if p, err := g.Authenticate(r); err == nil && p != nil {
					r = r.WithContext(WithPrincipal(r.Context(), p))
				}
			}
			rt.Handler(w, r)
			return
		}
		if rt.QueryToken && BearerToken(r) == "" {
			if tok := r.URL.Query().Get("token"); tok != "" {
				r = r.Clone(r.Context())
				r.Header.Set("Authorization", "Bearer "+tok)
			}
		}
		p, err := g.Authenticate(r)
		if err != nil {
			Fail(w, r, err)
			return
		}
		if p == nil {
			Unauthorized(w, r)
			return
		}
		if rt.Access.Kind == Code {
			ok := false
			for _, c := range rt.Access.Codes {
				if p.Has(c) {
					ok = true
					break
				}
			}
			if !ok {
				Fail(w, r, ErrForbidden)
				return
			}
		}
		rt.Handler(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}

// Mount registers routes on mux.
func Mount(mux *http.ServeMux, g Guard, routes []Route) {
	for _, rt := range routes {
		mux.Handle(rt.Pattern(), Handle(g, rt))
	}
}

package auth

import (
	"context"
	"net/http"

	"tankwatch/internal/platform/httpx"
)

// Account is what login needs to know about a user.
type Account struct {
	UserID       int64
	Name         string
	PasswordHash string
	Status       int   // 1 enabled, 0 disabled
	ExpireAt     int64 // Unix ms, 0 = never
}

// Accounts is implemented by the organisation service.
type Accounts interface {
	// FindAccount returns the account named name, or nil.
	FindAccount(ctx context.Context, name string) (*Account, error)
	// Principal returns the signed-in view of an enabled, unexpired user, or nil.
	Principal(ctx context.Context, userID int64) (*httpx.Principal, error)
	// Session returns the login/current-user answer; token is "" for userInfo/current.
	Session(ctx context.Context, userID int64, token string) (any, error)
	// TouchLogin records a successful login time.
	TouchLogin(ctx context.Context, userID int64, atMillis int64) error
}

// Guard turns bearer tokens into principals (implements httpx.Guard).
type Guard struct {
	Tokens   *Tokens
	Accounts Accounts
}

// Authenticate returns the caller, or nil when the token is missing, unknown, expired or revoked, or
// the user is disabled, expired or deleted.
func (g *Guard) Authenticate(r *http.Request) (*httpx.Principal, error) {
	raw := httpx.BearerToken(r)
	if raw == "" {
		return nil, nil
	}
	uid, hash, ok, err := g.Tokens.Check(r.Context(), raw)
	if err != nil || !ok {
		return nil, err
	}
	p, err := g.Accounts.Principal(r.Context(), uid)
	if err != nil || p == nil {
		return nil, err
	}
	p.TokenHash = hash
	return p, nil
}

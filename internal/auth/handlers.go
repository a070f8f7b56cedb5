package auth

import (
	"net/http"
	"strings"
	"time"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
)

// Service is the sign-in service.
type Service struct {
	Guard   *Guard
	Limiter *Limiter
	Audit   *audit.Log
	Now     func() time.Time
}

// NewService wires the sign-in service.
func NewService(tokens *Tokens, accounts Accounts, log *audit.Log) *Service {
	return &Service{Guard: &Guard{Tokens: tokens, Accounts: accounts}, Limiter: NewLimiter(), Audit: log, Now: time.Now}
}

// Routes returns the sign-in endpoints.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/authority-app/logIn", Access: httpx.PublicAccess, Handler: s.handleLogin},
		{Method: "GET", Path: "/authority-app/logOut", Access: httpx.SignedIn, Handler: s.handleLogout},
	}
}

// LoginRequest is the logIn body.
type LoginRequest struct {
	Account  string `json:"account"`
	Password string `json:"password"`
	Type     int    `json:"type"`
}

// Login checks the credentials and issues a token; it returns the session.
func (s *Service) Login(r *http.Request, req LoginRequest) (any, error) {
	ctx := r.Context()
	account := strings.TrimSpace(req.Account)
	if account == "" {
		return nil, httpx.Required("account")
	}
	if req.Password == "" {
		return nil, httpx.Required("password")
	}
	ip := httpx.ClientIP(r)
	switch v := s.Limiter.Check(account, ip); {
	case v.Locked:
		return nil, httpx.Biz("login.locked", int(LimitWindow.Minutes()))
	case v.AddrBlocked:
		return nil, httpx.Biz("login.rateLimited")
	case v.Delay > 0:
		// guessed at from other addresses: slow down, but let the right password in
		if err := s.Limiter.Sleep(ctx, v.Delay); err != nil {
			return nil, httpx.Biz("login.rateLimited")
		}
	}
	acc, err := s.Guard.Accounts.FindAccount(ctx, account)
	if err != nil {
		return nil, err
	}
	hash := dummyHash
	if acc != nil {
		hash = acc.PasswordHash
	}
	ok, _ := VerifyPassword(hash, req.Password)
	if acc == nil || !ok {
		if s.Limiter.Failed(account, ip) && acc != nil {
			s.recordLock(r, acc, ip)
		}
		return nil, httpx.Biz("login.wrong")
	}
	if acc.Status != 1 {
		return nil, httpx.Biz("login.disabled")
	}
	now := s.Now()
	if acc.ExpireAt != 0 && acc.ExpireAt <= now.UnixMilli() {
		return nil, httpx.Biz("login.expired")
	}
	s.Limiter.Succeeded(account, ip)
	token, err := s.Guard.Tokens.Issue(ctx, acc.UserID)
	if err != nil {
		return nil, err
	}
	if err := s.Guard.Tokens.Describe(ctx, token, ip, r.UserAgent()); err != nil {
		return nil, err
	}
	if err := s.Guard.Accounts.TouchLogin(ctx, acc.UserID, now.UnixMilli()); err != nil {
		return nil, err
	}
	p, err := s.Guard.Accounts.Principal(ctx, acc.UserID)
	if err != nil {
		return nil, err
	}
	s.Audit.Record(ctx, r, p, audit.Entry{Module: audit.ModuleAuth, Action: audit.ActionLogin, Target: acc.Name, TargetID: acc.UserID})
	return s.Guard.Accounts.Session(ctx, acc.UserID, token)
}

// recordLock writes the operation log row of a lockout: under the locked user's name and group, so
// the administrators who can unlock them see it, with the address the guesses came from.
func (s *Service) recordLock(r *http.Request, acc *Account, ip string) {
	actor, err := s.Guard.Accounts.Principal(r.Context(), acc.UserID)
	if err != nil || actor == nil {
		actor = &httpx.Principal{UserID: acc.UserID, UserName: acc.Name}
	}
	s.Audit.Record(r.Context(), r, actor, audit.Entry{Module: audit.ModuleAuth, Action: audit.ActionLock,
		Target: acc.Name, TargetID: acc.UserID, Detail: ip})
}

func (s *Service) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req LoginRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	sess, err := s.Login(r, req)
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	httpx.OKMsg(w, r, "login.ok", sess)
}

func (s *Service) handleLogout(w http.ResponseWriter, r *http.Request) {
	p := httpx.Caller(r)
	if err := s.Guard.Tokens.RevokeHash(r.Context(), p.TokenHash); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	s.Audit.Record(r.Context(), r, p, audit.Entry{Module: audit.ModuleAuth, Action: audit.ActionLogout, Target: p.UserName, TargetID: p.UserID})
	httpx.OKMsg(w, r, "logout.ok", nil)
}

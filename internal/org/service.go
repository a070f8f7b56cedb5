package org

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/auth"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Config is the server-wide presentation configuration.
type Config struct {
	Theme          string // --theme
	Title          string // --title, "" = the theme's translated titles
	SupplyChainURL string
	MapTiles       string // --map-tiles: gaode (default), osm or none
}

// Service is the organisation service.
type Service struct {
	db     *db.DB
	cfg    Config
	tokens *auth.Tokens
	audit  *audit.Log
	Now    func() time.Time
	// Logins is the sign-in limiter: the users list shows who is locked, and unlock lifts it.
	Logins *auth.Limiter
	// PlatformOverride fills in the platform settings an administrator changed at run time (map tiles,
	// time zone: internal/settings); nil: the flags.
	PlatformOverride func(*PlatformInfo)
}

// New returns the organisation service.
func New(d *db.DB, cfg Config, tokens *auth.Tokens, log *audit.Log) *Service {
	if cfg.Theme == "" {
		cfg.Theme = DefaultTheme
	}
	if cfg.MapTiles == "" {
		cfg.MapTiles = "gaode"
	}
	return &Service{db: d, cfg: cfg, tokens: tokens, audit: log, Now: time.Now}
}

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func notFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// FindAccount implements auth.Accounts.
func (s *Service) FindAccount(ctx context.Context, name string) (*auth.Account, error) {
	u := new(User)
	err := s.db.NewSelect().Model(u).Where("u.name = ?", strings.TrimSpace(name)).Scan(ctx)
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	a := &auth.Account{UserID: u.ID, Name: u.Name, PasswordHash: u.PasswordHash, Status: u.Status}
	if u.ExpireAt != nil {
		a.ExpireAt = *u.ExpireAt
	}
	return a, nil
}

// TouchLogin implements auth.Accounts.
func (s *Service) TouchLogin(ctx context.Context, userID, at int64) error {
	_, err := s.db.NewUpdate().Model((*User)(nil)).Set("last_login_at = ?", at).Where("id = ?", userID).Exec(ctx)
	return err
}

// userCodes returns the codes of the user's roles.
func userCodes(ctx context.Context, idb bun.IDB, userID int64) ([]string, error) {
	var codes []string
	err := idb.NewSelect().TableExpr("role_codes AS rc").ColumnExpr("DISTINCT rc.code").
		Join("JOIN user_roles AS ur ON ur.role_id = rc.role_id").Where("ur.user_id = ?", userID).Scan(ctx, &codes)
	return codes, err
}

// Principal implements auth.Accounts: nil for a missing, disabled or expired user.
func (s *Service) Principal(ctx context.Context, userID int64) (*httpx.Principal, error) {
	var row struct {
		User
		GroupPath     string `bun:"group_path"`
		PlatformGroup int64  `bun:"platform_group"`
	}
	err := s.db.NewSelect().Model(&row.User).ColumnExpr("u.*").ColumnExpr("g.path AS group_path").
		ColumnExpr("("+platformGroupSQL+") AS platform_group").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id = ?", userID).Scan(ctx, &row)
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if row.Status != 1 || (row.ExpireAt != nil && *row.ExpireAt <= s.nowMS()) {
		return nil, nil
	}
	codes, err := userCodes(ctx, s.db, userID)
	if err != nil {
		return nil, err
	}
	return &httpx.Principal{UserID: row.ID, UserName: row.Name, GroupID: row.GroupID, GroupPath: row.GroupPath,
		Codes: EffectiveCodes(codes), Platform: row.GroupID == row.PlatformGroup, TimeZone: row.Timezone}, nil
}

// platformGroupSQL selects the platform group's id: the first top-level group, the one the first
// administrator is created in (topGroupForAdmin). Other top-level groups are tenants like any
// subsidiary (D29). A group's id never changes and the first top group cannot be deleted while its
// administrators are in it, so the answer is stable.
const platformGroupSQL = "SELECT MIN(pg.id) FROM org_groups AS pg WHERE pg.parent_id IS NULL"

// PlatformGroupID returns the platform group's id (0 when there is no group yet).
func (s *Service) PlatformGroupID(ctx context.Context, idb bun.IDB) (int64, error) {
	var id sql.NullInt64
	err := idb.NewRaw(platformGroupSQL).Scan(ctx, &id)
	return id.Int64, err
}

// group loads one group (nil when missing).
func (s *Service) group(ctx context.Context, idb bun.IDB, id int64) (*Group, error) {
	g := new(Group)
	err := idb.NewSelect().Model(g).Where("g.id = ?", id).Scan(ctx)
	if notFound(err) {
		return nil, nil
	}
	return g, err
}

// scopedGroup loads a group the caller may see: missing → not found, outside the subtree → 403 scope.
func (s *Service) scopedGroup(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*Group, error) {
	if id <= 0 {
		return nil, httpx.Required("groupId")
	}
	g, err := s.group(ctx, idb, id)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, httpx.ErrNotFound
	}
	if !p.InScope(g.Path) {
		return nil, httpx.ErrScope
	}
	return g, nil
}

// pathGroups loads the groups on path, top first.
func (s *Service) pathGroups(ctx context.Context, path string) ([]Group, error) {
	ids := PathIDs(path)
	if len(ids) == 0 {
		return nil, nil
	}
	var gs []Group
	if err := s.db.NewSelect().Model(&gs).Where("g.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	byID := map[int64]Group{}
	for _, g := range gs {
		byID[g.ID] = g
	}
	out := make([]Group, 0, len(ids))
	for _, id := range ids {
		if g, ok := byID[id]; ok {
			out = append(out, g)
		}
	}
	return out, nil
}

// Look is the inherited presentation of a group: theme, title and logo URL.
type Look struct {
	Theme, Title, Logo string
}

// ResolveLook walks from the deepest group up: the nearest theme, title and logo win; otherwise the
// server's --theme, --title and the theme's built-in logo.
func ResolveLook(path []Group, cfg Config) Look {
	l := Look{}
	for i := len(path) - 1; i >= 0; i-- {
		g := path[i]
		if l.Theme == "" && g.Theme != "" {
			l.Theme = g.Theme
		}
		if l.Title == "" && g.Title != "" {
			l.Title = g.Title
		}
		if l.Logo == "" {
			l.Logo = g.LogoURL()
		}
	}
	if l.Theme == "" {
		l.Theme = cfg.Theme
		if l.Theme == "" {
			l.Theme = DefaultTheme
		}
	}
	if l.Title == "" {
		l.Title = cfg.Title
	}
	if l.Logo == "" {
		l.Logo = ThemeLogoURL(l.Theme)
	}
	return l
}

// CurrentUserInfo is the nested user part of the session.
type CurrentUserInfo struct {
	UserID       int64   `json:"userId"`
	UserName     string  `json:"userName"`
	UserNickName string  `json:"userNickName"`
	GroupID      int64   `json:"groupId"`
	GroupCode    string  `json:"groupCode"`
	GroupName    string  `json:"groupName"`
	TopGroupID   int64   `json:"topGroupId"`
	RoleIDs      []int64 `json:"roleIds"`
	Theme        string  `json:"theme"`
}

// Session is the logIn / userInfo/current answer.
type Session struct {
	UserName        string          `json:"userName"`
	UserID          int64           `json:"userId"`
	GroupID         int64           `json:"groupId"`
	GroupCode       string          `json:"groupCode"`
	GroupName       string          `json:"groupName"`
	TopGroupID      int64           `json:"topGroupId"`
	UserNickName    string          `json:"userNickName"`
	UserEmail       string          `json:"userEmail"`
	UserPhone       string          `json:"userPhone"`
	UserStatus      int             `json:"userStatus"`
	IndexTitle      string          `json:"indexTitle"`
	IndexLogo       string          `json:"indexLogo"`
	Theme           string          `json:"theme"`
	Platform        bool            `json:"platform"`
	Language        string          `json:"language"`
	Timezone        string          `json:"timezone"`
	Prefs           Prefs           `json:"prefs"` // the user's console preferences, applied at sign-in
	AccessToken     string          `json:"access_token,omitempty"`
	CurrentUserInfo CurrentUserInfo `json:"currentUserInfo"`
	ExceedCars      []any           `json:"exceedCars"`
	ExpiringCars    []any           `json:"expiringCars"`
	ExpiredCars     []any           `json:"expiredCars"`
}

// Session implements auth.Accounts.
func (s *Service) Session(ctx context.Context, userID int64, token string) (any, error) {
	return s.session(ctx, userID, token)
}

func (s *Service) session(ctx context.Context, userID int64, token string) (*Session, error) {
	u := new(User)
	if err := s.db.NewSelect().Model(u).Where("u.id = ?", userID).Scan(ctx); err != nil {
		return nil, err
	}
	g, err := s.group(ctx, s.db, u.GroupID)
	if err != nil || g == nil {
		return nil, errors.Join(err, errors.New("user's group missing"))
	}
	path, err := s.pathGroups(ctx, g.Path)
	if err != nil {
		return nil, err
	}
	look := ResolveLook(path, s.cfg)
	var roleIDs []int64
	if err := s.db.NewSelect().Model((*userRole)(nil)).Column("role_id").Where("user_id = ?", userID).Order("role_id").Scan(ctx, &roleIDs); err != nil {
		return nil, err
	}
	if roleIDs == nil {
		roleIDs = []int64{}
	}
	top := PathIDs(g.Path)[0]
	return &Session{
		UserName: u.Name, UserID: u.ID, GroupID: g.ID, GroupCode: g.Code, GroupName: g.Name, TopGroupID: top,
		UserNickName: u.NickName, UserEmail: u.Email, UserPhone: u.Phone, UserStatus: u.Status,
		IndexTitle: look.Title, IndexLogo: look.Logo, Theme: look.Theme, Platform: u.Platform,
		Language: u.Language, Timezone: u.Timezone, Prefs: ParsePrefs(u.Prefs), AccessToken: token,
		CurrentUserInfo: CurrentUserInfo{UserID: u.ID, UserName: u.Name, UserNickName: u.NickName, GroupID: g.ID,
			GroupCode: g.Code, GroupName: g.Name, TopGroupID: top, RoleIDs: roleIDs, Theme: look.Theme},
		ExceedCars: []any{}, ExpiringCars: []any{}, ExpiredCars: []any{},
	}, nil
}

// PlatformInfo is the public login-page configuration.
type PlatformInfo struct {
	Theme          string `json:"theme"`
	IndexTitle     string `json:"indexTitle"`
	IndexLogo      string `json:"indexLogo"`
	LoginTitle     string `json:"loginTitle"`
	SupplyChainURL string `json:"supplyChainUrl"`
	MapTiles       string `json:"mapTiles"` // gaode, osm, offline or none: the console's map tiles
	TimeZone       string `json:"timeZone"` // the platform's display zone (system settings)
}

// PlatformInfo returns the server's presentation configuration.
func (s *Service) PlatformInfo() PlatformInfo {
	info := PlatformInfo{Theme: s.cfg.Theme, IndexTitle: s.cfg.Title, IndexLogo: ThemeLogoURL(s.cfg.Theme),
		LoginTitle: s.cfg.Title, SupplyChainURL: s.cfg.SupplyChainURL, MapTiles: s.cfg.MapTiles, TimeZone: "Asia/Shanghai"}
	if s.PlatformOverride != nil {
		s.PlatformOverride(&info) // the system settings changed at run time (internal/settings)
	}
	return info
}

// record writes an operation log entry for the caller of r.
func (s *Service) record(r *http.Request, module, action, target string, id int64, detail string) {
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id, Detail: detail})
}

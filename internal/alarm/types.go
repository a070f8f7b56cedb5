package alarm

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// Codes of the platform's own rules. The JT/T 808 alarm bits are "t<bit>" (TerminalCode).
const (
	CodeAbnormalUnload  = "abnormalUnload"
	CodeSealBroken      = "sealBroken"
	CodeLevelDrop       = "levelDrop"
	CodeLockOpened      = "lockOpened"
	CodeSpeeding        = "speeding"
	CodeOvertimeParking = "overtimeParking"
	CodeOffline         = "offline"
	CodeFenceIn         = "fenceIn"
	CodeFenceOut        = "fenceOut"
	// CodeIdentityConflict: another connection claimed the car's terminal while its session went on
	// (raised by the JT/T 808 gateway through Engine.RaiseIdentityConflict, not by a report rule).
	CodeIdentityConflict = "identityConflict"
)

// Alarm groups (catalogue alarm.group.<name>).
var typeGroups = []string{"safety", "driving", "device", "operation"}

// terminalBits are the JT/T 808 (2013) alarm bits with a meaning (jt808-facts).
var terminalBits = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}

// TerminalCode is the type code of JT/T 808 alarm bit b.
func TerminalCode(b int) string { return fmt.Sprintf("t%d", b) }

// ModuleAlarm is the operation-log module of alarm management.
const ModuleAlarm = "alarm"

// Type is an alarm type (policeType): its code, level I–V (1–5), group, whether it is judged at all
// and whether its alarms are pushed live to the dispatchers.
type Type struct {
	Code    string `bun:"code,pk" json:"code"`
	Sort    int    `bun:"sort" json:"sort"`
	Level   int    `bun:"level" json:"level"`
	Group   string `bun:"grp" json:"group"`
	Enabled bool   `bun:"enabled" json:"enabled"`
	Push    bool   `bun:"push" json:"push"`
}

type typeRow struct {
	bun.BaseModel `bun:"table:alarm_types"`
	Code          string `bun:"code,pk"`
	Sort          int    `bun:"sort"`
	Level         int    `bun:"level"`
	Grp           string `bun:"grp"`
	Enabled       int    `bun:"enabled"`
	Push          int    `bun:"push"`
}

// TypeView is a type as listed, with its name and group name in the caller's language.
type TypeView struct {
	Type
	Name      string `json:"name"`
	GroupName string `json:"groupName"`
}

// TypeName is the name of an alarm type in l.
func TypeName(l i18n.Lang, code string) string {
	// the JT/T 808 bits keep the names the monitoring detail gives them
	if len(code) > 1 && code[0] == 't' {
		if _, err := strconv.Atoi(code[1:]); err == nil {
			return i18n.T(l, "live.alarm."+code[1:])
		}
	}
	return i18n.T(l, "alarm.type."+code)
}

func (s *Service) loadTypes(ctx context.Context) error {
	var rows []typeRow
	if err := s.db.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return err
	}
	m := make(map[string]Type, len(rows))
	for _, r := range rows {
		m[r.Code] = Type{Code: r.Code, Sort: r.Sort, Level: r.Level, Group: r.Grp, Enabled: r.Enabled == 1, Push: r.Push == 1}
	}
	s.mu.Lock()
	s.types = m
	s.mu.Unlock()
	return nil
}

// typeOf returns the cached type of code.
func (s *Service) typeOf(code string) (Type, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.types[code]
	return t, ok
}

// Types lists every alarm type in its sort order, named in l.
func (s *Service) Types(l i18n.Lang) []TypeView {
	s.mu.RLock()
	out := make([]TypeView, 0, len(s.types))
	for _, t := range s.types {
		out = append(out, TypeView{Type: t, Name: TypeName(l, t.Code), GroupName: i18n.T(l, "alarm.group."+t.Group)})
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b TypeView) int { return a.Sort - b.Sort })
	return out
}

// TypeInput is the body of POST /alarm-app/alarmType/update.
type TypeInput struct {
	Code    string `json:"code"`
	Level   int    `json:"level"`
	Group   string `json:"group"`
	Enabled *bool  `json:"enabled"`
	Push    *bool  `json:"push"`
}

// TypeEditCode is the button code of changing alarm types (policeType-edit).
const TypeEditCode = "02-02-01"

// UpdateType changes a type's level, group, enabled and push flags. The types are one table for the
// whole platform (every tenant's alarms are judged by them), so only a platform administrator may.
func (s *Service) UpdateType(r *http.Request, in TypeInput) (*TypeView, error) {
	if !httpx.Caller(r).PlatformAdmin(TypeEditCode) {
		return nil, httpx.ErrPlatformOnly
	}
	in.Code = strings.TrimSpace(in.Code)
	if in.Code == "" {
		return nil, httpx.Required("alarmType")
	}
	cur, ok := s.typeOf(in.Code)
	if !ok {
		return nil, httpx.ErrNotFound
	}
	if in.Level < LevelI || in.Level > LevelV {
		return nil, httpx.Biz("field.range", httpx.Field("alarmLevel"), LevelI, LevelV)
	}
	if !slices.Contains(typeGroups, in.Group) {
		return nil, httpx.Invalid("alarmGroup")
	}
	if in.Enabled == nil {
		return nil, httpx.Required("alarmEnabled")
	}
	if in.Push == nil {
		return nil, httpx.Required("alarmPush")
	}
	_, err := s.db.NewUpdate().Model((*typeRow)(nil)).Set("level = ?", in.Level).Set("grp = ?", in.Group).
		Set("enabled = ?", b2i(*in.Enabled)).Set("push = ?", b2i(*in.Push)).Where("code = ?", in.Code).Exec(r.Context())
	if err != nil {
		return nil, err
	}
	if err := s.loadTypes(r.Context()); err != nil {
		return nil, err
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleAlarm, Action: audit.ActionUpdate, Target: in.Code,
		Detail: audit.Text("oplog.alarmType", audit.Key(fmt.Sprintf("oplog.level.%d", cur.Level)), audit.Key(fmt.Sprintf("oplog.level.%d", in.Level)),
			audit.Key("alarm.group."+cur.Group), audit.Key("alarm.group."+in.Group),
			cur.Enabled, *in.Enabled, cur.Push, *in.Push)})
	t, _ := s.typeOf(in.Code)
	l := httpx.Lang(r)
	return &TypeView{Type: t, Name: TypeName(l, t.Code), GroupName: i18n.T(l, "alarm.group."+t.Group)}, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

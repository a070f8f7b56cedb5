package firmware

import (
	"fmt"
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

const prefix = "/base-info-app/upgradePack/"

type idBody struct {
	ID int64 `json:"id"`
}

// Routes: packages (page 06-10; upload 06-10-01 and delete 06-10-02, platform only), pushes (push
// 06-10-03, retry 06-10-04), the per-terminal list and the push history with its export (06-10).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: httpx.Needs(CodePage),
			Handler: httpx.JSON(func(r *http.Request, q PackageQuery) (any, error) { return s.Packages(r.Context(), q) })},
		{Method: "POST", Path: prefix + "upload", Access: httpx.Needs(CodeAdd),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.Upload(w, r)
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs(CodeDelete),
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: prefix + "push", Access: httpx.Needs(CodePush), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in PushInput) (any, error) { return s.Push(r, in) })},
		{Method: "POST", Path: prefix + "retry", Access: httpx.Needs(CodeRetry), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in RetryInput) (any, error) { return nil, s.Retry(r, in) })},
		{Method: "POST", Path: prefix + "jobs", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q JobQuery) (any, error) { return s.Jobs(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "pushes", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q PushQuery) (any, error) { return s.Pushes(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "pushExport", Access: httpx.Needs(CodePage), Scoped: true, Handler: xlsx.StreamHandler(s.PushExport)},
	}
}

// PushExport streams the push history of the caller's scope (the list's filters; newest first).
func (s *Service) PushExport(r *http.Request, q PushQuery) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	if _, err := s.pushWhere(ctx, p, q); err != nil {
		return nil, nil, err
	}
	sh := &xlsx.Sheet{Name: "export.upgradePush", ASCII: "firmware-pushes", Head: []string{"field.upgradePack.pushedAt",
		"field.upgradePack.kind", "field.upgradePack.manufacturer", "field.upgradePack.version", "field.upgradePack.pushedBy",
		"field.upgradePack.group", "field.upgradePack.terminals", "field.upgradePack.done", "field.upgradePack.failed",
		"field.upgradePack.expiresAt"}}
	rows := func(emit func([]any) error) error {
		const batch = 1000
		for off := int64(0); ; off += batch {
			var page []pushRow
			sel, err := s.pushWhere(ctx, p, q)
			if err != nil {
				return err
			}
			if err := sel.OrderExpr("pu.created_at DESC, pu.id DESC").Limit(batch).Offset(off).Scan(ctx, &page); err != nil {
				return err
			}
			for i := range page {
				v := page[i].view()
				if err := emit([]any{v.CreatedAt, i18n.T(lang, fmt.Sprintf("upgradePack.kind.%d", v.Kind)), v.Manufacturer, v.Version,
					v.UserName, v.GroupName, v.Terminals, v.Done, v.Failed, v.ExpiresAt}); err != nil {
					return err
				}
			}
			if len(page) < batch {
				return nil
			}
		}
	}
	return sh, rows, nil
}

package audit

import (
	"encoding/json"
	"fmt"
	"net/http"

	"tankwatch/internal/platform/httpx"
)

func fmtAny(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Routes returns the audit endpoints.
func (l *Log) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/authority-app/operationLog/page", Access: httpx.Needs("06-03"), Handler: l.handlePage},
		{Method: "POST", Path: "/authority-app/operationLog/export", Access: httpx.Needs("06-03-01"), Handler: l.handleExport},
		{Method: "POST", Path: "/authority-app/errorLog/add", Access: httpx.OptionalAuth, Handler: l.handleAddError},
	}
}

func (l *Log) handlePage(w http.ResponseWriter, r *http.Request) {
	var f OpLogQuery
	if err := httpx.Decode(w, r, &f); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	page, err := l.Page(r.Context(), httpx.Caller(r), httpx.Lang(r), f)
	httpx.Respond(w, r, page, err)
}

func (l *Log) handleExport(w http.ResponseWriter, r *http.Request) {
	var f OpLogQuery
	if err := httpx.Decode(w, r, &f); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if err := l.Export(r.Context(), w, r, httpx.Caller(r), f); err != nil {
		httpx.Fail(w, r, err)
	}
}

func (l *Log) handleAddError(w http.ResponseWriter, r *http.Request) {
	var rep ErrorReport
	if err := httpx.Decode(w, r, &rep); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	httpx.Respond(w, r, nil, l.AddError(r.Context(), httpx.ClientIP(r), httpx.Caller(r), rep))
}

package messaging

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

// messageAccess is the message page's permission (menu 06-01).
var messageAccess = httpx.Needs("06-01")

// Routes returns the system-message calls. The spec names none; they live beside the other
// authority-app pages (docs/API.md "System messages").
func (m *Messages) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/authority-app/message/page", Access: messageAccess, Handler: m.handlePage},
		{Method: "POST", Path: "/authority-app/message/export", Access: messageAccess, Handler: m.handleExport},
		{Method: "POST", Path: "/authority-app/message/send", Access: messageAccess, Handler: m.handleSend, Scoped: true},
		{Method: "GET", Path: "/authority-app/message/users", Access: messageAccess, Handler: m.handleUsers},
		{Method: "POST", Path: "/authority-app/message/received", Access: httpx.SignedIn, Handler: m.handleReceived},
		{Method: "POST", Path: "/authority-app/message/read", Access: httpx.SignedIn, Handler: m.handleRead},
	}
}

func (m *Messages) handlePage(w http.ResponseWriter, r *http.Request) {
	var f SentQuery
	if err := httpx.Decode(w, r, &f); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	page, err := m.Page(r.Context(), httpx.Caller(r), f)
	httpx.Respond(w, r, page, err)
}

func (m *Messages) handleExport(w http.ResponseWriter, r *http.Request) {
	var f SentQuery
	if err := httpx.Decode(w, r, &f); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if err := m.Export(r.Context(), w, r, httpx.Caller(r), f); err != nil {
		httpx.Fail(w, r, err)
	}
}

func (m *Messages) handleSend(w http.ResponseWriter, r *http.Request) {
	var in SendInput
	if err := httpx.Decode(w, r, &in); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	res, err := m.Send(r.Context(), httpx.Caller(r), in)
	httpx.Respond(w, r, res, err)
}

func (m *Messages) handleUsers(w http.ResponseWriter, r *http.Request) {
	users, err := m.Users(r.Context(), httpx.Caller(r), r.URL.Query().Get("name"))
	httpx.Respond(w, r, users, err)
}

func (m *Messages) handleReceived(w http.ResponseWriter, r *http.Request) {
	var f ReceivedQuery
	if err := httpx.Decode(w, r, &f); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	page, err := m.Received(r.Context(), httpx.Caller(r), f)
	httpx.Respond(w, r, page, err)
}

func (m *Messages) handleRead(w http.ResponseWriter, r *http.Request) {
	var in struct {
		IDs []int64 `json:"ids"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	n, err := m.MarkRead(r.Context(), httpx.Caller(r), in.IDs)
	httpx.Respond(w, r, map[string]int{"read": n}, err)
}

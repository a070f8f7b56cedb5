package sessions

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

// signOutBody names one session (id) or a user whose every session ends (userId).
type signOutBody struct {
	ID     string `json:"id"`
	UserID int64  `json:"userId"`
}

// Routes: the list (every signed-in user: an administrator sees their scope, others their own
// sessions; the spec's GET with a query) and sign-out (06-11-02, or one's own session).
func (s *Service) Routes() []httpx.Route {
	list := func(r *http.Request, q Query) (any, error) { return s.List(r.Context(), httpx.Caller(r), q) }
	return []httpx.Route{
		{Method: "GET", Path: "/authority-app/userInfo/listCurrentRecords", Access: httpx.SignedIn, Scoped: true,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				v := r.URL.Query()
				q := Query{UserName: v.Get("userName")}
				var err error
				if q.PageNum, err = atoi(v.Get("pageNum")); err == nil {
					if q.PageSize, err = atoi(v.Get("pageSize")); err == nil {
						if q.GroupID, err = atoi64(v.Get("groupId")); err == nil {
							q.SortField, q.SortOrder = v.Get("sortField"), v.Get("sortOrder")
						}
					}
				}
				if err != nil {
					httpx.Fail(w, r, err)
					return
				}
				data, err := list(r, q)
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: "/authority-app/userInfo/listCurrentRecords", Access: httpx.SignedIn, Scoped: true, Handler: httpx.JSON(list)},
		{Method: "POST", Path: "/authority-app/userInfo/signOutSession", Access: httpx.SignedIn, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in signOutBody) (any, error) {
				if in.ID == "" && in.UserID > 0 {
					return nil, s.SignOutUser(r, in.UserID)
				}
				return nil, s.SignOut(r, in.ID)
			})},
	}
}

package org

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
)

type idBody struct {
	ID int64 `json:"id"`
}

type idsBody struct {
	IDs []int64 `json:"ids"`
}

type statusBody struct {
	ID     int64 `json:"id"`
	Status *int  `json:"status"`
}

type nameBody struct {
	Name string `json:"name"`
}

type passwordBody struct {
	OldPassword string `json:"oldPassword"`
	NewPassword string `json:"newPassword"`
}

// Routes returns the organisation endpoints with their access declarations.
func (s *Service) Routes() []httpx.Route {
	caller := httpx.Caller
	return []httpx.Route{
		{Method: "GET", Path: "/authority-app/platformInfo", Access: httpx.PublicAccess,
			Handler: func(w http.ResponseWriter, r *http.Request) { httpx.OK(w, r, s.PlatformInfo()) }},
		{Method: "GET", Path: "/themes/{theme}/logo.svg", Access: httpx.PublicAccess, Handler: handleThemeLogo},
		{Method: "GET", Path: "/authority-app/groupInfo/logo/{id}", Access: httpx.PublicAccess, Handler: s.handleLogo},

		{Method: "GET", Path: "/authority-app/resourceInfo/findTreesForLogin", Access: httpx.SignedIn, Scoped: true,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				p := caller(r)
				if v := r.URL.Query().Get("userId"); v != "" {
					id, err := httpx.QueryID(r, "userId")
					if err != nil {
						httpx.Fail(w, r, err)
						return
					}
					if id != p.UserID {
						httpx.Fail(w, r, httpx.ErrScope)
						return
					}
				}
				httpx.OK(w, r, FilterMenu(menuTree, p.Codes))
			}},
		{Method: "GET", Path: "/authority-app/userInfo/current", Access: httpx.SignedIn,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				sess, err := s.session(r.Context(), caller(r).UserID, "")
				httpx.Respond(w, r, sess, err)
			}},
		{Method: "POST", Path: "/authority-app/userInfo/passwordUpdate", Access: httpx.SignedIn,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				var in passwordBody
				if err := httpx.Decode(w, r, &in); err != nil {
					httpx.Fail(w, r, err)
					return
				}
				if err := s.ChangeOwnPassword(r, in.OldPassword, in.NewPassword); err != nil {
					httpx.Fail(w, r, err)
					return
				}
				httpx.OKMsg(w, r, "password.updated", nil)
			}},
		{Method: "POST", Path: "/base-info-app/userSetting/edit", Access: httpx.SignedIn,
			Handler: httpx.JSON(func(r *http.Request, in Settings) (any, error) { return s.EditSettings(r, in) })},

		// users
		{Method: "POST", Path: "/authority-app/userInfo/page", Access: httpx.Needs("06-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q UserQuery) (any, error) { return s.UserPage(r.Context(), caller(r), q) })},
		{Method: "GET", Path: "/authority-app/userInfo/detail", Access: httpx.Needs("06-08-06"), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.UserDetail(r.Context(), caller(r), id) })},
		{Method: "POST", Path: "/authority-app/userInfo/insert", Access: httpx.Needs("06-08-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in UserInput) (any, error) { return s.InsertUser(r, in) })},
		{Method: "POST", Path: "/authority-app/userInfo/update", Access: httpx.Needs("06-08-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in UserInput) (any, error) { return s.UpdateUser(r, in) })},
		{Method: "POST", Path: "/authority-app/userInfo/deleteByIds", Access: httpx.Needs("06-08-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idsBody) (any, error) { return s.DeleteUsers(r, in.IDs) })},
		{Method: "GET", Path: "/authority-app/userInfo/resetPassword", Access: httpx.Needs("06-08-04"), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) {
				pw, err := s.ResetPassword(r, id)
				if err != nil {
					return nil, err
				}
				return map[string]string{"password": pw}, nil
			})},
		{Method: "POST", Path: "/authority-app/userInfo/unlock", Access: httpx.Needs("06-08-02"), Scoped: true,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				var in statusBody
				if err := httpx.Decode(w, r, &in); err != nil {
					httpx.Fail(w, r, err)
					return
				}
				if err := s.UnlockUser(r, in.ID); err != nil {
					httpx.Fail(w, r, err)
					return
				}
				httpx.OKMsg(w, r, "user.unlocked", nil)
			}},
		{Method: "POST", Path: "/authority-app/userInfo/updateStatus", Access: httpx.Needs("06-08-05"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in statusBody) (any, error) { return s.UpdateStatus(r, in.ID, in.Status) })},

		// roles
		{Method: "POST", Path: "/authority-app/roleInfo/page", Access: httpx.Needs("06-07"),
			Handler: httpx.JSON(func(r *http.Request, q RoleQuery) (any, error) { return s.RolePage(r.Context(), caller(r), q) })},
		{Method: "GET", Path: "/authority-app/roleInfo/detail", Access: httpx.Needs("06-07"), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.RoleDetail(r.Context(), caller(r), id) })},
		{Method: "POST", Path: "/authority-app/roleInfo/list", Access: httpx.Needs("06-07"),
			Handler: httpx.JSON(func(r *http.Request, _ struct{}) (any, error) { return s.RoleList(r.Context(), caller(r)) })},
		{Method: "POST", Path: "/authority-app/roleInfo/insert", Access: httpx.Needs("06-07-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in RoleInput) (any, error) { return s.InsertRole(r, in) })},
		{Method: "POST", Path: "/authority-app/roleInfo/update", Access: httpx.Needs("06-07-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in RoleInput) (any, error) { return s.UpdateRole(r, in) })},
		{Method: "POST", Path: "/authority-app/roleInfo/deleteByIds", Access: httpx.Needs("06-07-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idsBody) (any, error) { return s.DeleteRoles(r, in.IDs) })},
		{Method: "GET", Path: "/authority-app/resourceInfo/findTrees", Access: httpx.Needs("06-07"),
			Handler: func(w http.ResponseWriter, r *http.Request) { httpx.OK(w, r, FilterMenu(menuTree, caller(r).Codes)) }},

		// groups
		// Any signed-in user: every page that filters or files by organisation (vehicles, terminals, SIM
		// cards, users, offline records…) offers the caller's own subtree, and only that.
		{Method: "POST", Path: "/authority-app/groupInfo/findTrees", Access: httpx.SignedIn,
			Handler: httpx.JSON(func(r *http.Request, in nameBody) (any, error) { return s.GroupTree(r.Context(), caller(r), in.Name) })},
		{Method: "POST", Path: "/authority-app/groupInfo/add", Access: httpx.Needs("06-04-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in GroupInput) (any, error) { return s.AddGroup(r, in, false) })},
		{Method: "POST", Path: "/authority-app/groupInfo/addChildren", Access: httpx.Needs("06-04-02"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in GroupInput) (any, error) { return s.AddGroup(r, in, true) })},
		{Method: "POST", Path: "/authority-app/groupInfo/edit", Access: httpx.Needs("06-04-03"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in GroupInput) (any, error) { return s.EditGroup(r, in) })},
		{Method: "POST", Path: "/authority-app/groupInfo/delete", Access: httpx.Needs("06-04-04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.DeleteGroup(r, in.ID) })},
		{Method: "GET", Path: "/authority-app/groupInfo/findParents", Access: httpx.Needs("06-04"), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.GroupParents(r.Context(), caller(r), id) })},
		{Method: "POST", Path: "/authority-app/groupInfo/findAllChildren", Access: httpx.Needs("06-04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return s.GroupChildren(r.Context(), caller(r), in.ID) })},
		{Method: "POST", Path: "/authority-app/groupInfo/findAllChildrenPage", Access: httpx.Needs("06-04"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q GroupChildrenQuery) (any, error) {
				return s.GroupChildrenPage(r.Context(), caller(r), q)
			})},
		{Method: "POST", Path: "/authority-app/groupInfo/addSalesCompany", Access: httpx.Needs(CodeSalesCompany), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in SalesCompanyInput) (any, error) { return s.AddSalesCompany(r, in) })},
		{Method: "POST", Path: "/authority-app/groupInfo/editImgAndTittle", Access: httpx.Needs("06-04-05", "06-13-01"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in LogoInput) (any, error) { return s.EditLook(r, in) })},
	}
}

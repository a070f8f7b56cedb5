package staff

import (
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
)

const (
	empPrefix   = "/base-info-app/employees/"
	dutyPrefix  = "/base-info-app/jobDuty/"
	leavePrefix = "/base-info-app/leaveRecord/"
	flowPrefix  = "/base-info-app/operateFlow/"

	// codes of the waybill form (internal/waybill/bill), whose driver / escort picker reads employees/crew
	codeWaybillAdd  = "03-13-01"
	codeWaybillEdit = "03-13-02"
)

func jsonID(fn func(r *http.Request, id int64) error) http.HandlerFunc {
	return httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, fn(r, in.ID) })
}

// Routes: employees (03-08), duties (03-19), leave (03-18), procedures (03-20) and the waybill form's
// crew picker.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: empPrefix + "page", Access: httpx.Needs(CodeEmployees), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		// the home tile reads it too: any page code that shows it
		{Method: "POST", Path: empPrefix + "summary", Access: httpx.Needs(CodeEmployees), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q SummaryQuery) (any, error) {
				return s.Summarize(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "POST", Path: empPrefix + "save", Access: httpx.Needs(CodeEmpAdd, CodeEmpEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) {
				// add and edit are separate buttons: the code must match what is done
				if c := httpx.Caller(r); (in.ID == 0 && !c.Codes[CodeEmpAdd]) || (in.ID != 0 && !c.Codes[CodeEmpEdit]) {
					return nil, httpx.ErrForbidden
				}
				return s.Save(r, in)
			})},
		{Method: "POST", Path: empPrefix + "delete", Access: httpx.Needs(CodeEmpDelete), Scoped: true, Handler: jsonID(s.Delete)},
		{Method: "POST", Path: empPrefix + "export", Access: httpx.Needs(CodeEmpExport), Scoped: true, Handler: xlsx.StreamHandler(s.Export)},
		// an uploaded file: groups named in it outside the caller's scope are row errors
		{Method: "POST", Path: empPrefix + "importPreview", Access: httpx.Needs(CodeEmpImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				d, err := s.Import(w, r, false)
				httpx.Respond(w, r, d, err)
			}},
		{Method: "POST", Path: empPrefix + "import", Access: httpx.Needs(CodeEmpImport),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				d, err := s.Import(w, r, true)
				httpx.Respond(w, r, d, err)
			}},
		{Method: "POST", Path: empPrefix + "photo", Access: httpx.Needs(CodeEmpAdd, CodeEmpEdit), Scoped: true,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				d, err := s.UploadPhoto(w, r)
				httpx.Respond(w, r, d, err)
			}},
		{Method: "GET", Path: empPrefix + "photo", Access: httpx.Needs(CodeEmployees), Scoped: true, Handler: s.Photo},
		{Method: "POST", Path: empPrefix + "crew", Access: httpx.Needs(codeWaybillAdd, codeWaybillEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CrewQuery) (any, error) { return s.Crew(r.Context(), httpx.Caller(r), q) })},

		{Method: "POST", Path: dutyPrefix + "page", Access: httpx.Needs(CodeDuty, CodeFlowAdd, CodeFlowEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q DutyQuery) (any, error) { return s.DutyPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: dutyPrefix + "save", Access: httpx.Needs(CodeDutyAdd, CodeDutyEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in DutyInput) (any, error) {
				if c := httpx.Caller(r); (in.ID == 0 && !c.Codes[CodeDutyAdd]) || (in.ID != 0 && !c.Codes[CodeDutyEdit]) {
					return nil, httpx.ErrForbidden
				}
				return s.SaveDuty(r, in)
			})},
		{Method: "POST", Path: dutyPrefix + "delete", Access: httpx.Needs(CodeDutyDelete), Scoped: true, Handler: jsonID(s.DeleteDuty)},

		{Method: "POST", Path: leavePrefix + "page", Access: httpx.Needs(CodeLeave), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q LeaveQuery) (any, error) { return s.LeavePage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: leavePrefix + "save", Access: httpx.Needs(CodeLeaveAdd, CodeLeaveEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in LeaveInput) (any, error) {
				if c := httpx.Caller(r); (in.ID == 0 && !c.Codes[CodeLeaveAdd]) || (in.ID != 0 && !c.Codes[CodeLeaveEdit]) {
					return nil, httpx.ErrForbidden
				}
				return s.SaveLeave(r, in)
			})},
		{Method: "POST", Path: leavePrefix + "approve", Access: httpx.Needs(CodeLeaveApprove), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in DecideInput) (any, error) { return s.Decide(r, in) })},
		{Method: "POST", Path: leavePrefix + "delete", Access: httpx.Needs(CodeLeaveDelete), Scoped: true, Handler: jsonID(s.DeleteLeave)},
		{Method: "POST", Path: leavePrefix + "export", Access: httpx.Needs(CodeLeaveExport), Scoped: true, Handler: xlsx.StreamHandler(s.LeaveExport)},

		{Method: "POST", Path: flowPrefix + "page", Access: httpx.Needs(CodeFlow), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q FlowQuery) (any, error) { return s.FlowPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: flowPrefix + "save", Access: httpx.Needs(CodeFlowAdd, CodeFlowEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in FlowInput) (any, error) {
				if c := httpx.Caller(r); (in.ID == 0 && !c.Codes[CodeFlowAdd]) || (in.ID != 0 && !c.Codes[CodeFlowEdit]) {
					return nil, httpx.ErrForbidden
				}
				return s.SaveFlow(r, in)
			})},
		{Method: "POST", Path: flowPrefix + "delete", Access: httpx.Needs(CodeFlowDelete), Scoped: true, Handler: jsonID(s.DeleteFlow)},
	}
}

package equipment

import (
	"net/http"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

const (
	devicePrefix = "/base-info-app/equipment/"
	modelPrefix  = "/authority-app/equipmentFun/"
)

type idBody struct {
	ID int64 `json:"id"`
}

// deleteBody names an equipment row by id, or a device by kind + serial (a mirrored device's row as
// the list shows it).
type deleteBody struct {
	ID     int64  `json:"id"`
	Kind   Kind   `json:"kind"`
	Serial string `json:"serial"`
}

// Routes: the devices (page 03-17: add -01, edit -02, delete -03, export -04), a car's functions (the
// equipment page and the monitoring pages that show a car), and the models (06-09: add -01, edit -02,
// delete -03; changed only by platform users, read by the equipment form too). Models have no group, so
// their routes are not scoped.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: devicePrefix + "page", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: devicePrefix + "save", Access: httpx.Needs(CodeAdd, CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.saveChecked(r, in) })},
		{Method: "POST", Path: devicePrefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in deleteBody) (any, error) { return s.deleteBy(r, in) })},
		{Method: "POST", Path: devicePrefix + "export", Access: httpx.Needs(CodeExport), Scoped: true,
			Handler: xlsx.StreamHandler(s.Export)},
		// the caller's own scope only: it names no record
		{Method: "POST", Path: devicePrefix + "places", Access: httpx.Needs(CodeAdd, CodeEdit),
			Handler: httpx.JSON(func(r *http.Request, q PlacesQuery) (any, error) {
				return s.FindPlaces(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "GET", Path: devicePrefix + "carFunctions", Access: httpx.Needs(CodePage, "04-01", "04-02", "04-03"), Scoped: true,
			Handler: httpx.ByID("carId", func(r *http.Request, id int64) (any, error) { return s.CarFunctions(r.Context(), httpx.Caller(r), id) })},

		{Method: "POST", Path: modelPrefix + "page", Access: httpx.Needs(CodeModels),
			Handler: httpx.JSON(func(r *http.Request, q ModelQuery) (any, error) { return s.ModelPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "GET", Path: modelPrefix + "list", Access: httpx.Needs(CodeModels, CodePage),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				out, err := s.ModelOptions(r.Context(), Kind(r.URL.Query().Get("kind")))
				httpx.Respond(w, r, out, err)
			}},
		{Method: "POST", Path: modelPrefix + "save", Access: httpx.Needs(CodeModelAdd, CodeModelEdit),
			Handler: httpx.JSON(func(r *http.Request, in Model) (any, error) { return s.saveModelChecked(r, in) })},
		{Method: "POST", Path: modelPrefix + "delete", Access: httpx.Needs(CodeModelDel),
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.DeleteModel(r, in.ID) })},
	}
}

func (s *Service) deleteBy(r *http.Request, in deleteBody) (any, error) {
	if in.ID == 0 && in.Kind != "" && in.Serial != "" {
		src, err := one(r.Context(), s.db, httpx.Caller(r), in.Kind, strings.TrimSpace(in.Serial))
		if err != nil {
			return nil, err
		}
		if src == nil || src.ID == 0 {
			return nil, httpx.ErrNotFound
		}
		in.ID = src.ID
	}
	return s.Delete(r, in.ID)
}

// saveChecked: adding needs the add button's code, changing the edit button's (a mirrored device's
// first fields are an edit: the device exists in its register).
func (s *Service) saveChecked(r *http.Request, in Input) (any, error) {
	p := httpx.Caller(r)
	need := CodeEdit
	if in.ID == 0 && !in.Kind.Mirrored() {
		need = CodeAdd
	}
	if !p.Has(need) {
		return nil, httpx.ErrForbidden
	}
	return s.Save(r, in)
}

func (s *Service) saveModelChecked(r *http.Request, in Model) (any, error) {
	need := CodeModelEdit
	if in.ID == 0 {
		need = CodeModelAdd
	}
	if !httpx.Caller(r).Has(need) {
		return nil, httpx.ErrForbidden
	}
	return s.SaveModel(r, in)
}

// Export is the device list (the page's filters and order) as a streamed sheet.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	q.PageNum, q.PageSize = 1, 1
	if err := q.Normalize(); err != nil {
		return nil, nil, err
	}
	order, err := q.OrderBy(listSort, kindOrder+" ASC")
	if err != nil {
		return nil, nil, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return nil, nil, err
	}
	head := []string{}
	for _, c := range []string{"kind", "serial", "modelName", "manufacturer", "place", "groupName", "installDate", "warrantyEnd",
		"warranty", "state", "notes", "updatedAt"} {
		head = append(head, "field.equipment."+c)
	}
	sh := &xlsx.Sheet{Name: "export.equipment", ASCII: "equipment", Head: head}
	today := Today(s.Now())
	kinds, err := s.kinds(ctx)
	if err != nil {
		return nil, nil, err
	}
	each := func(emit func([]any) error) error {
		rows, err := sel.OrderExpr(order + ", u.serial, u.kind").Rows(ctx)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var rw row
			if err := s.db.ScanRow(ctx, rows, &rw); err != nil {
				return err
			}
			v := rw.view(today)
			place := v.Plate
			if v.StationName != "" {
				place = v.StationName
			}
			warranty := ""
			if v.Warranty != WarrantyNone {
				warranty = i18n.T(lang, "field.equipment.warranty."+strconv.Itoa(int(v.Warranty)))
			}
			err := emit([]any{kindLabel(kinds, lang, v.Kind), v.Serial, v.ModelName, v.Manufacturer, place, v.GroupName,
				v.InstallDate, v.WarrantyEnd, warranty, i18n.T(lang, "field.equipment.state."+strconv.Itoa(int(v.State))), v.Notes, v.UpdatedAt})
			if err != nil {
				return err
			}
		}
		return rows.Err()
	}
	return sh, each, nil
}

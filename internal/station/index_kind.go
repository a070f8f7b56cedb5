package station

import "tankwatch/internal/geo"

// FenceAt is StationAt with the station's type (Type*), for the liquid-level cockpit, which tells a
// depot (loading) from the other stations (unloading). Fences count company-wide, as for StationAt;
// the name is given only where groupPath's users may see the station named (geo.Visible, D29), else
// "". Safe for concurrent use; it allocates nothing.
func (s *Service) FenceAt(groupPath string, lat, lon int32) (id int64, name, typ string, ok bool) {
	x := s.idx.Load()
	if x == nil {
		return 0, "", "", false
	}
	cells := x.companies[companyOf(groupPath)]
	if cells == nil {
		return 0, "", "", false
	}
	p := Point{float64(lon) / 1e6, float64(lat) / 1e6}
	for _, i := range cells[cellKey{floorDiv(lat, cellMicro), floorDiv(lon, cellMicro)}] {
		e := &x.entries[i]
		if e.fence.Contains(p) {
			if geo.Visible(e.groupPath, groupPath) {
				name = e.name
			}
			return e.id, name, e.typ, true
		}
	}
	return 0, "", "", false
}

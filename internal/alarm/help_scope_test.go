package alarm_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/station"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// TestHelpRecordNamesNoSiblingStation: a help record is shown to the car's group and the groups above
// it, so neither its station nor its address names a station of a sibling subsidiary (D29), even
// where the car stands inside that station's fence; a car of the station's own group gets both.
func TestHelpRecordNamesNoSiblingStation(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		if err := e.App.Stations.Load(ctx); err != nil {
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)
		var sts httpx.Page[station.View]
		e.MustOK("POST", "/base-info-app/station/page", admin, map[string]any{"groupId": groups["华北分公司"]}).Decode(&sts)
		var st *station.View
		for i := range sts.List {
			if sts.List[i].FenceCenter != "" {
				st = &sts.List[i]
				break
			}
		}
		if st == nil {
			t.Fatal("no circle-fenced demo station in 华北")
		}
		lngS, latS, _ := strings.Cut(st.FenceCenter, ",")
		lng, _ := strconv.ParseFloat(lngS, 64)
		lat, _ := strconv.ParseFloat(latS, 64)
		record := func(groupID int64, requestID uint16) (name, address string) {
			term := helpTerminal(e, admin, groupID)
			v, ok, err := e.App.Help.Record(ctx, &telemetry.Report{TerminalID: term.ID, CarID: *term.CarID, Time: e.Clock.Now(),
				Lat: int32(lat * 1e6), Lon: int32(lng * 1e6), Help: &tank.Help{Type: tank.HelpUnlock, RequestID: requestID}})
			if err != nil || !ok {
				t.Fatalf("help record: %v %v", ok, err)
			}
			return v.StationName, v.Address
		}
		name, addr := record(groups["华东分公司"], 7)
		if name != "" || strings.Contains(addr, st.StationName) || addr == "" {
			t.Errorf("华东's record at 华北's station %q: station %q, address %q", st.StationName, name, addr)
		}
		name, addr = record(groups["华北分公司"], 8)
		if name != st.StationName || !strings.Contains(addr, st.StationName) {
			t.Errorf("华北's own record at %q: station %q, address %q", st.StationName, name, addr)
		}
	})
}

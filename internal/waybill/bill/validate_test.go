package bill

import (
	"errors"
	"testing"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

func good() Input {
	return Input{CarID: 1, DepotID: 2, StationIDs: []int64{3, 4}, PlannedLoadAt: 1000, PlannedArriveAt: 2000,
		DriverName: " 张三 ", DriverPhone: "13800000000", Compartments: []CompInput{{No: 1, ProductID: 5, PlannedL: 8000, DestSeq: 1},
			{No: 2, ProductID: 5, PlannedL: 6000, DestSeq: 2}, {No: 3, ProductID: 6, PlannedL: 100}}}
}

func TestClean(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Input)
		want string // English text of the error; "" none
	}{
		{"good", func(*Input) {}, ""},
		{"no car", func(in *Input) { in.CarID = 0 }, "Vehicle cannot be empty"},
		{"no depot", func(in *Input) { in.DepotID = 0 }, "Depot cannot be empty"},
		{"no destinations", func(in *Input) { in.StationIDs = nil }, "Destinations cannot be empty"},
		{"nine destinations", func(in *Input) { in.StationIDs = []int64{11, 12, 13, 14, 15, 16, 17, 18, 19} }, "At most 8 destinations"},
		{"bad destination", func(in *Input) { in.StationIDs = []int64{3, -1} }, "Destinations is not valid"},
		{"destination twice", func(in *Input) { in.StationIDs = []int64{3, 3} }, "A destination cannot appear twice"},
		{"destination is depot", func(in *Input) { in.StationIDs = []int64{2} }, "A destination cannot be the depot"},
		{"negative customer", func(in *Input) { in.CustomerID = -1 }, "Customer is not valid"},
		{"negative sales", func(in *Input) { in.SalesGroupID = -1 }, "Sales company is not valid"},
		{"no load time", func(in *Input) { in.PlannedLoadAt = 0 }, "Planned loading cannot be empty"},
		{"no arrival", func(in *Input) { in.PlannedArriveAt = 0 }, "Planned arrival cannot be empty"},
		{"arrival before load", func(in *Input) { in.PlannedArriveAt = 1000 }, "The planned arrival must be after the planned loading"},
		{"long driver", func(in *Input) {
			in.DriverName = "司机司机司机司机司机司机司机司机司机司机司机司机司机司机司机司机司"
		}, "Driver cannot be longer than 32 characters"},
		{"bad driver phone", func(in *Input) { in.DriverPhone = "abc" }, "Driver's phone is not valid"},
		{"long escort", func(in *Input) {
			in.EscortName = "押运押运押运押运押运押运押运押运押运押运押运押运押运押运押运押运押"
		}, "Escort cannot be longer than 32 characters"},
		{"bad escort phone", func(in *Input) { in.EscortPhone = "1" }, "Escort's phone is not valid"},
		{"long remark", func(in *Input) {
			r := make([]rune, 201)
			for i := range r {
				r[i] = '备'
			}
			in.Remark = string(r)
		}, "Remark cannot be longer than 200 characters"},
		{"no compartments", func(in *Input) { in.Compartments = nil }, "Compartments cannot be empty"},
		{"nine compartments", func(in *Input) { in.Compartments = make([]CompInput, 9) }, "At most 8 compartments"},
		{"compartment 0", func(in *Input) { in.Compartments[0].No = 0 }, "Compartment number must be between 1 and 8"},
		{"compartment 9", func(in *Input) { in.Compartments[0].No = 9 }, "Compartment number must be between 1 and 8"},
		{"compartment twice", func(in *Input) { in.Compartments[1].No = 1 }, "Compartment 1 appears twice"},
		{"no product", func(in *Input) { in.Compartments[1].ProductID = 0 }, "Compartment 2: Product cannot be empty"},
		{"zero volume", func(in *Input) { in.Compartments[0].PlannedL = 0 }, "Compartment 1: Planned (L) must be between 1 and 60000"},
		{"huge volume", func(in *Input) { in.Compartments[0].PlannedL = 60001 }, "Compartment 1: Planned (L) must be between 1 and 60000"},
		{"destination 3 of 2", func(in *Input) { in.Compartments[2].DestSeq = 3 }, "Compartment 3: Destination number must be between 1 and 2"},
		{"negative destination", func(in *Input) { in.Compartments[2].DestSeq = -1 }, "Compartment 3: Destination number must be between 1 and 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := good()
			c.edit(&in)
			err := in.Clean()
			if c.want == "" {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				if in.DriverName != "张三" || in.Compartments[2].DestSeq != 1 {
					t.Errorf("not cleaned: %+v", in)
				}
				return
			}
			var he *httpx.Error
			if !errors.As(err, &he) {
				t.Fatalf("want %q, got %v", c.want, err)
			}
			if got := i18n.T(i18n.EnUS, he.Key, he.Args...); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if zh := i18n.T(i18n.ZhCN, he.Key, he.Args...); zh == he.Key {
				t.Errorf("no zh-CN text for %s", he.Key)
			}
		})
	}
}

func TestCleanReason(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{{"", false}, {"  ", false}, {"客户取消", true}} {
		v := c.in
		if err := cleanReason(&v); (err == nil) != c.ok {
			t.Errorf("%q: %v", c.in, err)
		}
	}
}

func TestParseImportTimes(t *testing.T) {
	for _, s := range []string{"2026-11-26 08:00", "2026-11-26 08:00:00", "2026/11/26 08:00", "2026-11-26"} {
		if _, ok := parseTime(s); !ok {
			t.Errorf("%q not read", s)
		}
	}
	if _, ok := parseTime("明天"); ok {
		t.Error("nonsense read as a time")
	}
	if got := splitNames("一站、二站, 三站"); len(got) != 3 {
		t.Errorf("splitNames: %v", got)
	}
}

package geo

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tankwatch/internal/platform/i18n"
)

func mustTable(t testing.TB) *table {
	t.Helper()
	tb, err := loadTable()
	if err != nil {
		t.Fatalf("embedded table: %v", err)
	}
	return tb
}

func TestTableCoversEveryProvince(t *testing.T) {
	tb := mustTable(t)
	levels := map[string]int{}
	for _, a := range tb.areas {
		levels[a.level]++
	}
	// 23 provinces (Taiwan included), 5 autonomous regions, 4 municipalities, 2 SARs.
	if levels[levelProvince] != 34 {
		t.Errorf("provinces: %d, want 34", levels[levelProvince])
	}
	if levels[levelCity] < 330 {
		t.Errorf("only %d prefecture-level areas", levels[levelCity])
	}
	for _, a := range tb.areas {
		if strings.ContainsAny(a.tw, "东区县广门长龙") {
			t.Errorf("%s: zh-TW name %s still has simplified characters", a.zh, a.tw)
		}
	}
}

func TestOfflineKnownPlaces(t *testing.T) {
	s := New(Config{}, nil)
	cases := []struct {
		name       string
		lng, lat   float64
		zh, tw, en string
	}{
		{"Shijiazhuang Chang'an", 114.548, 38.045, "河北省石家庄市长安区附近", "河北省石家莊市長安區附近", "Chang'an District, Shijiazhuang, Hebei"},
		{"Tiananmen", 116.3975, 39.9087, "北京市东城区附近", "北京市東城區附近", "Dongcheng District, Beijing"},
		{"Beijing Capital airport", 116.5871, 40.0799, "北京市顺义区附近", "北京市順義區附近", "Shunyi District, Beijing"},
		{"Tianjin port", 117.78, 38.98, "天津市滨海新区附近", "天津市濱海新區附近", "Binhai New Area, Tianjin"},
		{"the Bund", 121.490, 31.240, "上海市黄浦区附近", "上海市黃浦區附近", "Huangpu District, Shanghai"},
		{"Lujiazui", 121.62, 31.20, "上海市浦东新区附近", "上海市浦東新區附近", "Pudong New Area, Shanghai"},
		{"Confucius Temple", 118.79, 32.02, "江苏省南京市秦淮区附近", "江蘇省南京市秦淮區附近", "Qinhuai District, Nanjing, Jiangsu"},
		{"Hangzhou Xiaoshan", 120.26, 30.17, "浙江省杭州市萧山区附近", "浙江省杭州市蕭山區附近", "Xiaoshan District, Hangzhou, Zhejiang"},
		{"Guangzhou Tianhe", 113.36, 23.13, "广东省广州市天河区附近", "廣東省廣州市天河區附近", "Tianhe District, Guangzhou, Guangdong"},
		{"Shenzhen Futian", 114.06, 22.54, "广东省深圳市福田区附近", "廣東省深圳市福田區附近", "Futian District, Shenzhen, Guangdong"},
		{"Tangshan (no districts listed)", 118.18, 39.63, "河北省唐山市附近", "河北省唐山市附近", "Tangshan, Hebei"},
		{"Shenyang", 123.43, 41.80, "辽宁省沈阳市附近", "遼寧省瀋陽市附近", "Shenyang, Liaoning"},
		{"Chengdu", 104.07, 30.66, "四川省成都市附近", "四川省成都市附近", "Chengdu, Sichuan"},
		{"Urumqi", 87.62, 43.83, "新疆维吾尔自治区乌鲁木齐市附近", "新疆維吾爾自治區烏魯木齊市附近", "Urumqi, Xinjiang"},
		{"Lhasa", 91.13, 29.65, "西藏自治区拉萨市附近", "西藏自治區拉薩市附近", "Lhasa, Tibet"},
		{"Hong Kong Central", 114.16, 22.28, "香港特别行政区香港岛附近", "香港特別行政區香港島附近", "Hong Kong Island, Hong Kong"},
		{"Macao", 113.55, 22.19, "澳门特别行政区附近", "澳門特別行政區附近", "Macao"},
		{"Taipei", 121.56, 25.04, "台湾省台北市附近", "台灣省台北市附近", "Taipei, Taiwan"},
		// 40 km from the listed districts of Shijiazhuang: the city, not a district.
		{"Pingshan county", 114.19, 38.26, "河北省石家庄市附近", "河北省石家莊市附近", "Shijiazhuang, Hebei"},
		{"Golmud", 94.90, 36.41, "青海省海西蒙古族藏族自治州格尔木市附近", "青海省海西蒙古族藏族自治州格爾木市附近", "Golmud, Haixi, Qinghai"},
		{"Tarim desert highway", 83.65, 38.90, "新疆维吾尔自治区巴音郭楞蒙古自治州塔中附近", "新疆維吾爾自治區巴音郭楞蒙古自治州塔中附近", "Tazhong, Bayingolin, Xinjiang"},
	}
	for _, c := range cases {
		for _, want := range []struct {
			lang i18n.Lang
			text string
		}{{i18n.ZhCN, c.zh}, {i18n.ZhTW, c.tw}, {i18n.EnUS, c.en}} {
			got, err := s.Reverse(context.Background(), c.lng, c.lat, want.lang)
			if err != nil || got != want.text {
				t.Errorf("%s %v: got %q, %v; want %q", c.name, want.lang, got, err, want.text)
			}
		}
	}
}

func TestOfflineOutsideChina(t *testing.T) {
	s := New(Config{}, nil)
	for _, c := range []struct {
		name     string
		lng, lat float64
	}{{"Paris", 2.3522, 48.8566}, {"Seoul", 126.978, 37.5665}, {"Pyongyang", 125.75, 39.03}, {"Hanoi", 105.85, 21.03},
		{"Ulaanbaatar", 106.92, 47.92}, {"Tokyo", 139.69, 35.69}, {"New York", -74.006, 40.7128}, {"Sydney", 151.21, -33.87},
		{"North Pole", 10, 89.9}, {"South Pole", 0.001, -89.99}} {
		en, _ := s.Reverse(context.Background(), c.lng, c.lat, i18n.EnUS)
		zh, _ := s.Reverse(context.Background(), c.lng, c.lat, i18n.ZhCN)
		if !strings.HasPrefix(en, "Outside China (lng ") || !strings.HasPrefix(zh, "中国境外（经度 ") {
			t.Errorf("%s: %q / %q", c.name, en, zh)
		}
	}
	got, _ := s.Reverse(context.Background(), 2.3522, 48.8566, i18n.EnUS)
	if got != "Outside China (lng 2.352200, lat 48.856600)" {
		t.Errorf("Paris: %q", got)
	}
}

// The grid must find exactly what a scan of every leaf finds.
func TestGridMatchesBruteForce(t *testing.T) {
	tb := mustTable(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		lat := -10 + rng.Float64()*75
		lon := 60 + rng.Float64()*90
		got, gotKm := tb.grid.nearest(lat, lon, maxAreaKm)
		want, wantKm := -1, math.Inf(1)
		k := math.Cos(lat * math.Pi / 180)
		for i, a := range tb.areas {
			x, y := (a.lon-lon)*k, a.lat-lat
			if d := math.Sqrt(x*x+y*y) * kmPerDeg; a.leaf && d < wantKm {
				want, wantKm = i, d
			}
		}
		if wantKm > maxAreaKm {
			want = -1
		}
		if got != want && math.Abs(gotKm-wantKm) > 1e-9 {
			t.Fatalf("(%f, %f): grid %d (%.3f km), scan %d (%.3f km)", lat, lon, got, gotKm, want, wantKm)
		}
	}
}

func TestParseAreasRejectsBadRows(t *testing.T) {
	h, err := parseHant(s2tText)
	if err != nil {
		t.Fatal(err)
	}
	const head = "name,name_en,level,parent,lat,lon\n"
	for name, src := range map[string]string{
		"no header":        "河北省,Hebei,province,,38,115\n",
		"unknown parent":   head + "石家庄市,Shijiazhuang,city,河北省,38,114\n",
		"city under city":  head + "河北省,Hebei,province,,38,115\n石家庄市,Shijiazhuang,city,河北省,38,114\n长安区,x,city,石家庄市,38,114\n",
		"bad latitude":     head + "河北省,Hebei,province,,98,115\n",
		"not a number":     head + "河北省,Hebei,province,,abc,115\n",
		"unknown level":    head + "河北省,Hebei,state,,38,115\n",
		"duplicate":        head + "河北省,Hebei,province,,38,115\n河北省,Hebei,province,,38,115\n",
		"missing column":   head + "河北省,Hebei,province,38,115\n",
		"empty name":       head + ",Hebei,province,,38,115\n",
		"province parent":  head + "河北省,Hebei,province,北京市,38,115\n",
		"nothing but head": head,
	} {
		if _, err := parseAreas(src, h); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestHant(t *testing.T) {
	h, err := parseHant(s2tText)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"辽宁省沈阳市":       "遼寧省瀋陽市",
		"沈家村":          "沈家村", // 沈 as a surname stays
		"浙江省杭州市余杭区":    "浙江省杭州市餘杭區",
		"广东省广州市黄埔区":    "廣東省廣州市黃埔區",
		"文一西路588号":     "文一西路588號",
		"Shijiazhuang": "Shijiazhuang",
	} {
		if got := h.convert(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"东", "东东", "东東 东東", "东東西", "沈阳=瀋", "=x"} {
		if _, err := parseHant(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

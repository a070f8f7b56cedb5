package sim

import "math"

// Place is a named point the fleet drives between.
type Place struct {
	Name   string
	Kind   string // "depot" | "station"
	Region string // "华北" | "华东" | "华南"
	Lat    float64
	Lon    float64 // WGS-84
}

// Place kinds.
const (
	KindDepot   = "depot"
	KindStation = "station"
)

// Regions are the three subsidiaries' areas, in the order the demo fleet cycles them.
var Regions = []string{"华北", "华东", "华南"}

// node is a waypoint of a region's road network: an expressway junction or a town the expressway passes.
type node struct {
	name     string
	lat, lon float64
}

// network is a region's hand-made expressway graph. Coordinates are from memory of the map (good to a
// few hundred metres): the point is that tankers follow G4, G2, G60, the Guangshen expressway and so on
// instead of cutting across fields, not survey accuracy.
type network struct {
	nodes []node
	edges [][2]string
}

var networks = map[string]network{
	"华北": {
		nodes: []node{
			{"北京", 39.860, 116.370}, {"杜家坎", 39.842, 116.222}, {"良乡", 39.730, 116.150}, {"燕山", 39.722, 115.990},
			{"窦店", 39.650, 116.070}, {"涿州", 39.490, 115.990}, {"高碑店", 39.330, 115.870}, {"徐水", 39.020, 115.660},
			{"保定", 38.870, 115.500}, {"定州", 38.520, 115.000}, {"新乐", 38.350, 114.700}, {"正定", 38.150, 114.580},
			{"石家庄", 38.040, 114.510}, {"石家庄东", 38.030, 114.620},
			{"马驹桥", 39.760, 116.550}, {"廊坊", 39.530, 116.700}, {"武清", 39.380, 117.040}, {"天津", 39.130, 117.200},
			{"大港", 38.840, 117.450}, {"宁河", 39.330, 117.830}, {"唐山", 39.630, 118.180},
			{"通州", 39.900, 116.660}, {"三河", 39.980, 117.070}, {"玉田", 39.890, 117.730}, {"丰润", 39.830, 118.150},
			{"静海", 38.950, 116.930}, {"青县", 38.580, 116.810}, {"沧州", 38.300, 116.840},
			{"雄县", 38.990, 116.110}, {"霸州", 39.120, 116.390}, {"杨柳青", 39.140, 117.010}, {"任丘", 38.710, 116.100}, {"河间", 38.440, 116.090},
			{"衡水", 37.740, 115.670}, {"辛集", 37.940, 115.220}, {"泊头", 38.080, 116.570},
		},
		edges: [][2]string{
			// G4 京港澳
			{"北京", "杜家坎"}, {"杜家坎", "良乡"}, {"良乡", "窦店"}, {"良乡", "燕山"}, {"窦店", "涿州"}, {"涿州", "高碑店"},
			{"高碑店", "徐水"}, {"徐水", "保定"}, {"保定", "定州"}, {"定州", "新乐"}, {"新乐", "正定"}, {"正定", "石家庄"},
			{"石家庄", "石家庄东"},
			// G2 京沪 / 京津塘, then 津沧
			{"北京", "马驹桥"}, {"马驹桥", "廊坊"}, {"廊坊", "武清"}, {"武清", "天津"}, {"天津", "大港"},
			{"天津", "静海"}, {"静海", "青县"}, {"青县", "沧州"},
			// 津唐, G1 京哈
			{"天津", "宁河"}, {"宁河", "唐山"}, {"北京", "通州"}, {"通州", "三河"}, {"三河", "玉田"}, {"玉田", "丰润"}, {"丰润", "唐山"},
			// G18 荣乌, G45 大广, G1811 石黄
			{"保定", "雄县"}, {"雄县", "霸州"}, {"霸州", "杨柳青"}, {"杨柳青", "天津"}, {"霸州", "任丘"}, {"任丘", "河间"}, {"河间", "衡水"},
			{"石家庄东", "辛集"}, {"辛集", "衡水"}, {"衡水", "泊头"}, {"泊头", "沧州"},
		},
	},
	"华东": {
		nodes: []node{
			{"上海", 31.200, 121.450}, {"高桥", 31.350, 121.570}, {"安亭", 31.290, 121.170}, {"昆山", 31.380, 120.980},
			{"苏州", 31.350, 120.620}, {"无锡", 31.550, 120.300}, {"常州", 31.780, 119.950}, {"松江", 31.030, 121.230},
			{"金山", 30.730, 121.330}, {"平湖", 30.700, 121.020}, {"嘉兴", 30.750, 120.760}, {"桐乡", 30.630, 120.560},
			{"临平", 30.420, 120.300}, {"杭州", 30.280, 120.160}, {"萧山", 30.180, 120.270}, {"绍兴", 30.000, 120.580},
			{"上虞", 30.030, 120.870}, {"余姚", 30.040, 121.150}, {"宁波", 29.870, 121.550}, {"镇海", 29.950, 121.710},
			{"吴江", 31.160, 120.640}, {"海盐", 30.530, 120.950}, {"跨海大桥北", 30.420, 121.060},
			{"跨海大桥南", 30.250, 121.210}, {"慈溪", 30.170, 121.270},
		},
		edges: [][2]string{
			// G2 沪宁
			{"上海", "安亭"}, {"安亭", "昆山"}, {"昆山", "苏州"}, {"苏州", "无锡"}, {"无锡", "常州"}, {"上海", "高桥"},
			// G60 沪昆, G92 杭甬
			{"上海", "松江"}, {"松江", "嘉兴"}, {"嘉兴", "桐乡"}, {"桐乡", "临平"}, {"临平", "杭州"}, {"杭州", "萧山"},
			{"萧山", "绍兴"}, {"绍兴", "上虞"}, {"上虞", "余姚"}, {"余姚", "宁波"}, {"宁波", "镇海"},
			// G15 沈海 (金山, 平湖), S17 苏嘉杭, 杭州湾跨海大桥
			{"松江", "金山"}, {"金山", "平湖"}, {"平湖", "海盐"}, {"苏州", "吴江"}, {"吴江", "嘉兴"}, {"嘉兴", "海盐"},
			{"海盐", "跨海大桥北"}, {"跨海大桥北", "跨海大桥南"}, {"跨海大桥南", "慈溪"}, {"慈溪", "宁波"}, {"慈溪", "余姚"},
		},
	},
	"华南": {
		nodes: []node{
			{"广州", 23.130, 113.270}, {"黄埔", 23.100, 113.450}, {"新塘", 23.120, 113.610}, {"东莞", 23.020, 113.750},
			{"厚街", 22.940, 113.670}, {"虎门", 22.820, 113.670}, {"沙田", 22.920, 113.600}, {"宝安", 22.620, 113.850},
			{"南山", 22.520, 113.930}, {"深圳", 22.540, 114.060}, {"妈湾", 22.490, 113.870}, {"龙岗", 22.720, 114.250},
			{"惠阳", 22.790, 114.460}, {"惠州", 23.110, 114.410}, {"博罗", 23.170, 114.280}, {"增城", 23.260, 113.820},
			{"大亚湾", 22.730, 114.540}, {"佛山", 23.020, 113.120}, {"三水", 23.160, 112.890}, {"顺德", 22.800, 113.270},
			{"番禺", 22.940, 113.380},
		},
		edges: [][2]string{
			// 广深高速
			{"广州", "黄埔"}, {"黄埔", "新塘"}, {"新塘", "厚街"}, {"新塘", "东莞"}, {"东莞", "厚街"}, {"厚街", "虎门"},
			{"虎门", "沙田"}, {"虎门", "宝安"}, {"宝安", "南山"}, {"南山", "深圳"}, {"南山", "妈湾"},
			// 深惠 / 惠盐, 广惠
			{"深圳", "龙岗"}, {"龙岗", "惠阳"}, {"惠阳", "惠州"}, {"惠阳", "大亚湾"}, {"黄埔", "增城"}, {"增城", "博罗"}, {"博罗", "惠州"},
			// 广佛, 佛山一环, 虎门大桥
			{"广州", "佛山"}, {"佛山", "三水"}, {"佛山", "顺德"}, {"顺德", "番禺"}, {"番禺", "广州"}, {"番禺", "虎门"},
		},
	},
}

// DemoPlaces are the depots and stations the demo fleet drives between. Names follow the companies'
// usual naming; coordinates are placed on the real streets or plants as well as known from memory and
// each lies within a few kilometres of a waypoint of its region's network.
var DemoPlaces = []Place{
	// 华北 depots
	{"中国石化燕山石化油库", KindDepot, "华北", 39.7200, 115.9750},
	{"中国石化天津石化油库", KindDepot, "华北", 38.8400, 117.4600},
	{"中国石油华北石化油库", KindDepot, "华北", 38.6900, 116.0800},
	{"中国石化石家庄炼化油库", KindDepot, "华北", 38.0300, 114.6300},
	{"中国石化沧州炼化油库", KindDepot, "华北", 38.3300, 116.8800},
	{"中国石油唐山油库", KindDepot, "华北", 39.6550, 118.2300},
	// 华北 stations
	{"中国石化北京马家堡加油站", KindStation, "华北", 39.8450, 116.3750},
	{"中国石化北京良乡加油站", KindStation, "华北", 39.7350, 116.1400},
	{"中国石油北京通州加油站", KindStation, "华北", 39.9050, 116.6600},
	{"中国石化天津武清加油站", KindStation, "华北", 39.3850, 117.0450},
	{"中国石油天津西青加油站", KindStation, "华北", 39.1400, 117.0100},
	{"中国石化廊坊新源道加油站", KindStation, "华北", 39.5300, 116.7050},
	{"中国石化涿州范阳路加油站", KindStation, "华北", 39.4870, 115.9750},
	{"中国石化保定东风路加油站", KindStation, "华北", 38.8750, 115.4800},
	{"中国石油定州加油站", KindStation, "华北", 38.5150, 115.0000},
	{"中国石化石家庄中华大街加油站", KindStation, "华北", 38.0500, 114.4800},
	{"中国石油沧州加油站", KindStation, "华北", 38.3050, 116.8500},
	{"中国石化唐山建设路加油站", KindStation, "华北", 39.6300, 118.1800},
	{"中国石化衡水加油站", KindStation, "华北", 37.7400, 115.6900},
	{"中国石油霸州加油站", KindStation, "华北", 39.1200, 116.4000},
	{"中国石化任丘加油站", KindStation, "华北", 38.7100, 116.1100},
	// 华东 depots
	{"中国石化上海石化油库", KindDepot, "华东", 30.7200, 121.3400},
	{"中国石化高桥石化油库", KindDepot, "华东", 31.3450, 121.5700},
	{"中国石化镇海炼化油库", KindDepot, "华东", 29.9650, 121.7050},
	{"中国石化杭州油库", KindDepot, "华东", 30.3100, 120.2500},
	{"中国石化无锡油库", KindDepot, "华东", 31.5700, 120.2800},
	// 华东 stations
	{"中国石化上海漕溪北路加油站", KindStation, "华东", 31.1900, 121.4400},
	{"中国石化上海世纪大道加油站", KindStation, "华东", 31.2300, 121.5300},
	{"中国石油上海松江加油站", KindStation, "华东", 31.0300, 121.2250},
	{"中国石化上海安亭加油站", KindStation, "华东", 31.2950, 121.1650},
	{"中国石化昆山前进路加油站", KindStation, "华东", 31.3850, 120.9750},
	{"中国石化苏州干将路加油站", KindStation, "华东", 31.3100, 120.6100},
	{"中国石油苏州吴江加油站", KindStation, "华东", 31.1600, 120.6400},
	{"中国石化无锡中山路加油站", KindStation, "华东", 31.5700, 120.3000},
	{"中国石化常州加油站", KindStation, "华东", 31.7800, 119.9550},
	{"中国石化嘉兴中山路加油站", KindStation, "华东", 30.7550, 120.7500},
	{"中国石化杭州文一路加油站", KindStation, "华东", 30.2850, 120.1300},
	{"中国石油杭州萧山加油站", KindStation, "华东", 30.1800, 120.2650},
	{"中国石化绍兴加油站", KindStation, "华东", 30.0000, 120.5850},
	{"中国石化宁波中山路加油站", KindStation, "华东", 29.8700, 121.5500},
	{"中国石化慈溪加油站", KindStation, "华东", 30.1700, 121.2650},
	// 华南 depots
	{"中国石化广州石化油库", KindDepot, "华南", 23.1050, 113.4400},
	{"中国石化深圳妈湾油库", KindDepot, "华南", 22.4850, 113.8700},
	{"中国石油东莞沙田油库", KindDepot, "华南", 22.9150, 113.5950},
	{"中海油惠州炼化油库", KindDepot, "华南", 22.7200, 114.5600},
	{"中国石化佛山三水油库", KindDepot, "华南", 23.1600, 112.8950},
	// 华南 stations
	{"中国石化广州天河路加油站", KindStation, "华南", 23.1350, 113.3300},
	{"中国石化广州黄埔大道加油站", KindStation, "华南", 23.1250, 113.4000},
	{"中国石油广州番禺加油站", KindStation, "华南", 22.9400, 113.3800},
	{"中国石化佛山季华路加油站", KindStation, "华南", 23.0100, 113.1100},
	{"中国石化顺德大良加油站", KindStation, "华南", 22.8050, 113.2650},
	{"中国石化东莞东城加油站", KindStation, "华南", 23.0200, 113.7600},
	{"中国石油东莞厚街加油站", KindStation, "华南", 22.9400, 113.6700},
	{"中国石化虎门加油站", KindStation, "华南", 22.8200, 113.6750},
	{"中国石化深圳宝安大道加油站", KindStation, "华南", 22.6200, 113.8500},
	{"中国石化深圳深南大道加油站", KindStation, "华南", 22.5400, 114.0500},
	{"中国石油深圳龙岗加油站", KindStation, "华南", 22.7200, 114.2450},
	{"中国石化惠州惠阳加油站", KindStation, "华南", 22.7900, 114.4550},
	{"中国石化惠州江北加油站", KindStation, "华南", 23.1100, 114.4100},
	{"中国石化增城加油站", KindStation, "华南", 23.2650, 113.8150},
}

// Box is a latitude/longitude bounding box.
type Box struct{ MinLat, MinLon, MaxLat, MaxLon float64 }

// Contains reports whether the point lies in b.
func (b Box) Contains(lat, lon float64) bool {
	return lat >= b.MinLat && lat <= b.MaxLat && lon >= b.MinLon && lon <= b.MaxLon
}

// boxMargin is added around a region's waypoints and places: the roads' lateral jitter stays far
// inside it (a few hundred metres, 0.05° is over 4 km).
const boxMargin = 0.05

// RegionBox returns the bounding box of a region's network and places; every simulated position of a
// vehicle of the region lies inside it. ok is false for an unknown region.
func RegionBox(region string) (Box, bool) {
	n, ok := networks[region]
	if !ok {
		return Box{}, false
	}
	b := Box{MinLat: math.Inf(1), MinLon: math.Inf(1), MaxLat: math.Inf(-1), MaxLon: math.Inf(-1)}
	grow := func(lat, lon float64) {
		b.MinLat, b.MaxLat = min(b.MinLat, lat), max(b.MaxLat, lat)
		b.MinLon, b.MaxLon = min(b.MinLon, lon), max(b.MaxLon, lon)
	}
	for _, w := range n.nodes {
		grow(w.lat, w.lon)
	}
	for _, p := range DemoPlaces {
		if p.Region == region {
			grow(p.Lat, p.Lon)
		}
	}
	return Box{b.MinLat - boxMargin, b.MinLon - boxMargin, b.MaxLat + boxMargin, b.MaxLon + boxMargin}, true
}

// PlaceIndex is the DemoPlaces index of the place named name, -1 when none is.
func PlaceIndex(name string) int {
	for i, p := range DemoPlaces {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// NearStations returns the names of the n stations of depot's region closest to it (the stations
// its trucks serve when they plan their own trips); nil for an unknown depot.
func NearStations(depot string, n int) []string {
	i := PlaceIndex(depot)
	if i < 0 {
		return nil
	}
	v := vehicle{region: DemoPlaces[i].Region}
	var out []string
	for _, s := range v.nearStations(DemoPlaces[i].point(), n) {
		out = append(out, DemoPlaces[s].Name)
	}
	return out
}

// RouteKm is the road distance between two demo places by the region's expressways (km), 0 when
// either is unknown or they lie in different regions.
func RouteKm(from, to string) float64 {
	a, b := PlaceIndex(from), PlaceIndex(to)
	if a < 0 || b < 0 || DemoPlaces[a].Region != DemoPlaces[b].Region {
		return 0
	}
	return routeBetween(a, b).length / 1000
}

// LoadGoalL is the mean volume a demo truck loads into each compartment (its goal is drawn between
// 9,000 and 9,600 L).
const LoadGoalL = 9300.0

// LoadGoalMaxL is the most a demo truck loads into one compartment.
const LoadGoalMaxL = 9600.0

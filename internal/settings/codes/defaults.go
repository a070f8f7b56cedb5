package codes

// Types are the code lists, in the order the page lists them. A type is part of the code (pages know
// which list they read); its items are data.
var Types = []string{"vehicleClass", "fuelType", "stationType", "faultType", "equipmentKind", "licenceClass", "leaveKind"}

// KnownType reports whether t is a code list.
func KnownType(t string) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}

type seed struct{ code, zh, tw, en string }

// Defaults are the items list typ starts with (seeded, built in), in their order: what a part reads
// when it has no code list service (its own tests) and what it may rely on being there.
func Defaults(typ string) []Item {
	out := []Item{}
	for i, d := range defaults[typ] {
		out = append(out, Item{Type: typ, Code: d.code, LabelZh: d.zh, LabelTw: d.tw, LabelEn: d.en, Sort: (i + 1) * 10, Enabled: true, Builtin: true})
	}
	return out
}

// defaults are the items each list starts with: today's constants (fleet fuel types 0–3, the station
// types of internal/station, the vehicle class the demo uses), so that nothing changes for a user until
// an administrator edits a list.
var defaults = map[string][]seed{
	"vehicleClass": {
		{"重型罐式货车", "重型罐式货车", "重型罐式貨車", "Heavy tank truck"},
		{"中型罐式货车", "中型罐式货车", "中型罐式貨車", "Medium tank truck"},
		{"轻型罐式货车", "轻型罐式货车", "輕型罐式貨車", "Light tank truck"},
		{"重型罐式半挂车", "重型罐式半挂车", "重型罐式半掛車", "Heavy tank semi-trailer"},
		{"半挂牵引车", "半挂牵引车", "半掛牽引車", "Semi-trailer tractor"},
	},
	"fuelType": {
		{"0", "0#柴油", "0#柴油", "0# diesel"},
		{"1", "92#汽油", "92#汽油", "92# gasoline"},
		{"2", "95#汽油", "95#汽油", "95# gasoline"},
		{"3", "天然气", "天然氣", "Natural gas"},
	},
	"stationType": {
		{"yk", "油库", "油庫", "Oil depot"},
		{"jyz", "加油站", "加油站", "Oil station"},
		{"wlcc", "物流停车场", "物流停車場", "Logistics parking"},
		{"ztcc", "中途停车场", "中途停車場", "Midway parking"},
		{"wxd", "维修点", "維修點", "Maintenance spot"},
		{"zqgd", "蒸汽罐点", "蒸汽罐點", "Steam tank spot"},
		{"tjjz", "添加剂站", "添加劑站", "Additive station"},
		{"cng", "CNG站", "CNG站", "CNG station"},
	},
	// the after-sales fault types (aftersales.DefaultTypes reads these codes)
	"faultType": {
		{"terminal", "终端故障", "終端故障", "Terminal fault"},
		{"probe", "液位探杆故障", "液位探桿故障", "Level probe fault"},
		{"lock", "电子锁故障", "電子鎖故障", "Electronic lock fault"},
		{"camera", "摄像头故障", "攝影機故障", "Camera fault"},
		{"wiring", "线路供电故障", "線路供電故障", "Wiring and power fault"},
		{"sim", "SIM卡/通信故障", "SIM卡/通訊故障", "SIM / communication fault"},
		{"other", "其他", "其他", "Other"},
	},
	// equipment.Kind*: the six kinds devices held as numbers 1–6 before (migration 00041); terminal,
	// lock and gauge are pinned (their devices come from their own registers)
	"equipmentKind": {
		{"terminal", "车载终端", "車載終端", "Vehicle terminal"},
		{"probe", "液位探杆", "液位探桿", "Level probe"},
		{"lock", "电子锁", "電子鎖", "Electronic lock"},
		{"camera", "摄像头", "攝影機", "Camera"},
		{"gauge", "液位仪", "液位儀", "Tank gauge"},
		{"other", "其他设备", "其他設備", "Other device"},
	},
	// the driving licence classes of 《机动车驾驶证申领和使用规定》 (staff.LicenceClasses)
	"licenceClass": {
		{"A1", "A1 大型客车", "A1 大型客車", "A1 large bus"},
		{"A2", "A2 牵引车", "A2 牽引車", "A2 tractor"},
		{"A3", "A3 城市公交车", "A3 城市公車", "A3 city bus"},
		{"B1", "B1 中型客车", "B1 中型客車", "B1 medium bus"},
		{"B2", "B2 大型货车", "B2 大型貨車", "B2 large truck"},
		{"C1", "C1 小型汽车", "C1 小型汽車", "C1 car"},
		{"C2", "C2 小型自动挡汽车", "C2 小型自排汽車", "C2 automatic car"},
		{"C3", "C3 低速载货汽车", "C3 低速載貨汽車", "C3 low-speed truck"},
		{"C4", "C4 三轮汽车", "C4 三輪汽車", "C4 three-wheeled vehicle"},
		{"C5", "C5 残疾人专用小型自动挡载客汽车", "C5 身障者專用小型自排載客汽車", "C5 adapted automatic car"},
		{"C6", "C6 轻型牵引挂车", "C6 輕型牽引掛車", "C6 light trailer combination"},
		{"D", "D 普通三轮摩托车", "D 普通三輪機車", "D three-wheeled motorcycle"},
		{"E", "E 普通二轮摩托车", "E 普通二輪機車", "E motorcycle"},
		{"F", "F 轻便摩托车", "F 輕便機車", "F moped"},
		{"M", "M 轮式自行机械车", "M 輪式自走機械車", "M wheeled machinery"},
		{"N", "N 无轨电车", "N 無軌電車", "N trolleybus"},
		{"P", "P 有轨电车", "P 有軌電車", "P tram"},
	},
	// staff.Leave*: the four kinds records held as numbers 1–4 before (migration 00040) and two more
	"leaveKind": {
		{"annual", "年假", "年假", "Annual leave"},
		{"sick", "病假", "病假", "Sick leave"},
		{"personal", "事假", "事假", "Personal leave"},
		{"marriage", "婚假", "婚假", "Marriage leave"},
		{"bereavement", "丧假", "喪假", "Bereavement leave"},
		{"other", "其他", "其他", "Other"},
	},
}

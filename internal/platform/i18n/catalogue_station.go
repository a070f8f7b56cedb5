package i18n

// Texts of the station registry and suspected stations (internal/station).
func init() {
	merge(map[string][3]string{
		"field.station.stationName": {"站点名称", "站點名稱", "Station name"},
		"field.station.stationType": {"站点类型", "站點類型", "Station type"},
		"field.station.fenceType":   {"围栏类型", "圍欄類型", "Fence type"},
		"field.station.fenceCenter": {"圆心", "圓心", "Circle centre"},
		"field.station.fence":       {"围栏", "圍欄", "Fence"},
		"field.station.group":       {"所属组织", "所屬組織", "Group"},
		"field.station.address":     {"地址", "地址", "Address"},
		"field.station.contact":     {"联系人", "聯絡人", "Contact"},
		"field.station.phone":       {"联系电话", "聯絡電話", "Phone"},
		"field.station.updatedAt":   {"更新时间", "更新時間", "Updated"},
		"field.station.radius":      {"搜索半径（米）", "搜尋半徑（公尺）", "Search radius (m)"},
		"field.station.lnglat":      {"经纬度", "經緯度", "Longitude and latitude"},

		"station.pointSyntax": {"坐标格式应为“经度,纬度”，多个点用分号分隔", "座標格式應為「經度,緯度」，多個點用分號分隔",
			"Coordinates must be \"longitude,latitude\", points separated by semicolons"},
		"station.pointRange": {"坐标超出范围（经度 -180～180，纬度 -90～90，不能为 0,0）", "座標超出範圍（經度 -180～180，緯度 -90～90，不能為 0,0）",
			"Coordinates out of range (longitude -180 to 180, latitude -90 to 90, not 0,0)"},
		"station.polygonPoints": {"多边形围栏至少需要 3 个不同的顶点", "多邊形圍欄至少需要 3 個不同的頂點",
			"A polygon fence needs at least 3 distinct vertices"},
		"station.polygonMany": {"多边形围栏最多 %d 个顶点", "多邊形圍欄最多 %d 個頂點", "A polygon fence has at most %d vertices"},
		"station.selfIntersecting": {"多边形围栏的边不能相交、相接或重叠：第 %d–%d 点的边与第 %d–%d 点的边相交，请按顺序沿边界描点",
			"多邊形圍欄的邊不能相交、相接或重疊：第 %d–%d 點的邊與第 %d–%d 點的邊相交，請按順序沿邊界描點",
			"The edges of a polygon fence must not cross, touch or overlap: the edge between points %d–%d meets the edge between points %d–%d; draw the points in order along the boundary"},
		"station.radiusRange": {"半径应在 %d 米到 %d 公里之间", "半徑應在 %d 公尺到 %d 公里之間",
			"Radius must be between %d m and %d km"},
		"station.fenceType":  {"围栏类型应为 1（多边形）或 2（圆形）", "圍欄類型應為 1（多邊形）或 2（圓形）", "Fence type must be 1 (polygon) or 2 (circle)"},
		"station.nameExists": {"本组织已有名为 %s 的站点", "本組織已有名為 %s 的站點", "This group already has a station named %s"},

		"station.type.yk":   {"油库", "油庫", "Oil depot"},
		"station.type.jyz":  {"加油站", "加油站", "Oil station"},
		"station.type.wlcc": {"物流停车场", "物流停車場", "Logistics parking"},
		"station.type.ztcc": {"中途停车场", "中途停車場", "Midway parking"},
		"station.type.wxd":  {"维修点", "維修點", "Maintenance spot"},
		"station.type.zqgd": {"蒸汽罐点", "蒸汽罐點", "Steam tank spot"},
		"station.type.tjjz": {"添加剂站", "添加劑站", "Additive station"},
		"station.type.cng":  {"CNG站", "CNG站", "CNG station"},
		"station.fence.1":   {"多边形", "多邊形", "Polygon"},
		"station.fence.2":   {"圆形", "圓形", "Circle"},

		"group.hasStations":       {"该组织下还有站点或疑似站点", "該組織下還有站點或疑似站點", "The group still has stations or suspected stations"},
		"export.station":          {"站点", "站點", "Stations"},
		"module.station":          {"站点管理", "站點管理", "Stations"},
		"module.suspectedStation": {"疑似站点", "疑似站點", "Suspected stations"},
	})
}

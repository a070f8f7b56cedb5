package i18n

// Texts of reverse geocoding (internal/geo).
func init() {
	merge(map[string][3]string{
		"geo.near":      {"%s附近", "%s附近", "%s"},
		"geo.outside":   {"中国境外（经度 %.6f，纬度 %.6f）", "中國境外（經度 %.6f，緯度 %.6f）", "Outside China (lng %.6f, lat %.6f)"},
		"geo.placeNear": {"%[1]s，距%[2]s %[3]s（%[4]s方向）", "%[1]s，距%[2]s %[3]s（%[4]s方向）", "%[1]s; %[3]s %[4]s of %[2]s"},
		"geo.placeAt":   {"%s，位于%s", "%s，位於%s", "%s; at %s"},
		"geo.km":        {"%.1f 公里", "%.1f 公里", "%.1f km"},
		"geo.m":         {"%d 米", "%d 公尺", "%d m"},
		"geo.dir.n":     {"北", "北", "north"},
		"geo.dir.ne":    {"东北", "東北", "north-east"},
		"geo.dir.e":     {"东", "東", "east"},
		"geo.dir.se":    {"东南", "東南", "south-east"},
		"geo.dir.s":     {"南", "南", "south"},
		"geo.dir.sw":    {"西南", "西南", "south-west"},
		"geo.dir.w":     {"西", "西", "west"},
		"geo.dir.nw":    {"西北", "西北", "north-west"},
	})
}

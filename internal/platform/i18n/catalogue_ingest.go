package i18n

// Texts of the tank monitor (internal/tank/monitor: tankMonitor, tankMonitor2VXE, getVtV20).
func init() {
	merge(map[string][3]string{
		"tankmon.source.0":  {"无", "無", "None"},
		"tankmon.source.1":  {"容积表", "容積表", "Strapping table"},
		"tankmon.source.2":  {"探杆", "探桿", "Probe"},
		"tankmon.source.3":  {"液位仪", "液位儀", "Tank gauge"},
		"tankmon.open":      {"打开", "打開", "Open"},
		"tankmon.closed":    {"关闭", "關閉", "Closed"},
		"tankmon.online":    {"在线", "在線", "Online"},
		"tankmon.offline":   {"离线", "離線", "Offline"},
		"tankmon.density":   {"%s应为 0（使用油品默认值）或 500 到 1100 之间", "%s應為 0（使用油品預設值）或 500 到 1100 之間", "%s must be 0 (the product's default) or between 500 and 1100"},
		"tankmon.fillOrder": {"装载率下限不能大于上限", "裝載率下限不能大於上限", "The lowest fill cannot be above the highest"},
		"tankmon.exportTooMany": {"一次最多导出 %d 行，请缩小筛选范围", "一次最多匯出 %d 行，請縮小篩選範圍",
			"At most %d rows per export; narrow the filters"},
		"export.tankMonitor": {"油罐监控", "油罐監控", "Tank monitor"},

		"field.tankmon.vt":          {"油品体积 Vt", "油品體積 Vt", "Observed volume Vt"},
		"field.tankmon.temperature": {"油温", "油溫", "Temperature"},
		"field.tankmon.density20":   {"标准密度 ρ20", "標準密度 ρ20", "Density at 20 °C"},
		"field.tankmon.product":     {"油品", "油品", "Product"},
		"field.tankmon.fillMin":     {"装载率下限", "裝載率下限", "Lowest fill"},
		"field.tankmon.fillMax":     {"装载率上限", "裝載率上限", "Highest fill"},
		"field.tankmon.plate":       {"车牌号", "車牌號", "Plate"},
		"field.tankmon.group":       {"所属机构", "所屬機構", "Group"},
		"field.tankmon.no":          {"仓号", "倉號", "Compartment"},
		"field.tankmon.levelMm":     {"液位（mm）", "液位（mm）", "Level (mm)"},
		"field.tankmon.volume":      {"体积（L）", "體積（L）", "Volume (L)"},
		"field.tankmon.v20":         {"标准体积 V20（L）", "標準體積 V20（L）", "V20 (L)"},
		"field.tankmon.fillPct":     {"装载率（%）", "裝載率（%）", "Fill (%)"},
		"field.tankmon.covers":      {"人孔盖", "人孔蓋", "Manhole covers"},
		"field.tankmon.valves":      {"阀门", "閥門", "Valves"},
		"field.tankmon.seal":        {"铅封", "鉛封", "Seal"},
		"field.tankmon.time":        {"液位时间", "液位時間", "Level time"},
		"field.tankmon.online":      {"在线状态", "在線狀態", "Online"},
	})
}

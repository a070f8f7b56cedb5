package i18n

// Texts of the transport analysis (internal/stats/analysis, D57).
func init() {
	merge(map[string][3]string{
		"analysis.period":          {"请选择统计时段（开始与结束时间）", "請選擇統計時段（開始與結束時間）", "Choose the period (start and end)"},
		"analysis.endBeforeStart":  {"结束时间必须晚于开始时间", "結束時間必須晚於開始時間", "The end time must be later than the start time"},
		"analysis.tooLong":         {"统计时段最长 %d 天", "統計時段最長 %d 天", "The period may span at most %d days"},
		"analysis.productAndRoute": {"油品与线路不能同时筛选或分组（线路汇总不按油品拆分）", "油品與線路不能同時篩選或分組（線路彙總不按油品拆分）", "A product and a route cannot be combined (the route figures are not split by product)"},
		"analysis.totals":          {"合计 %s", "合計 %s", "Total %s"},
		"analysis.current":         {"本期 %s", "本期 %s", "This period %s"},
		"analysis.lastMonth":       {"上月同期 %s", "上月同期 %s", "Month before %s"},
		"analysis.lastYear":        {"去年同期 %s", "去年同期 %s", "Year before %s"},
		"analysis.mom":             {"环比 (%)", "環比 (%)", "Month on month (%)"},
		"analysis.yoy":             {"同比 (%)", "同比 (%)", "Year on year (%)"},
		"export.analysis":          {"运输分析", "運輸分析", "Transport analysis"},
		"export.analysisTrend":     {"运输趋势", "運輸趨勢", "Transport trend"},

		"field.analysis.dim.company":        {"承运单位", "承運單位", "Carrier"},
		"field.analysis.dim.product":        {"油品", "油品", "Product"},
		"field.analysis.dim.route":          {"线路（油库 → 首站）", "線路（油庫 → 首站）", "Route (depot → first station)"},
		"field.analysis.step":               {"时段", "時段", "Period"},
		"field.analysis.trips":              {"趟数", "趟數", "Trips"},
		"field.analysis.shippedV20":         {"发油量 V20 (L)", "發油量 V20 (L)", "Shipped V20 (L)"},
		"field.analysis.shippedT":           {"发油质量 (t)", "發油質量 (t)", "Shipped (t)"},
		"field.analysis.lossL":              {"运损 (L)", "運損 (L)", "Loss (L)"},
		"field.analysis.lossRatePct":        {"运损率 (%)", "運損率 (%)", "Loss rate (%)"},
		"field.analysis.tonKm":              {"吨公里", "噸公里", "Ton-km"},
		"field.analysis.km":                 {"重载里程 (km)", "重載里程 (km)", "Loaded km"},
		"field.analysis.avgOutToArrivalMin": {"平均出库到到站 (分钟)", "平均出庫到到站 (分鐘)", "Avg out to arrival (min)"},
		"field.analysis.abnormalOpenings":   {"途中开启 (次)", "途中開啟 (次)", "Openings on the way"},
		"field.analysis.overAllowance":      {"超标趟数", "超標趟數", "Trips over allowance"},
		"field.analysis.tampering":          {"电子锁破坏 (次)", "電子鎖破壞 (次)", "Lock tampering"},
		"field.analysis.sealIncidents":      {"铅封异常 (次)", "鉛封異常 (次)", "Seal incidents"},
		"field.analysis.minOut":             {"最短出库到到站 (分钟)", "最短出庫到到站 (分鐘)", "Shortest (min)"},
		"field.analysis.maxOut":             {"最长出库到到站 (分钟)", "最長出庫到到站 (分鐘)", "Longest (min)"},
		"field.analysis.stdOut":             {"出库到到站标准差 (分钟)", "出庫到到站標準差 (分鐘)", "Std deviation (min)"},
		"field.analysis.dim":                {"分组维度", "分組維度", "Dimension"},
		"field.analysis.grain":              {"时间粒度", "時間粒度", "Step"},
		"field.analysis.only":               {"明细范围", "明細範圍", "Trips shown"},
		"field.analysis.year":               {"年份", "年份", "Year"},
		"field.analysis.depotId":            {"线路油库", "線路油庫", "Route depot"},
	})
}

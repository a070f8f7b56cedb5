package i18n

// Texts of the car, company and product statistics (internal/stats/pages, D55).
func init() {
	merge(map[string][3]string{
		"tripStats.endBeforeStart": {"结束日期不能早于开始日期", "結束日期不能早於開始日期", "The end date cannot be before the start date"},
		"tripStats.periodTooLong":  {"统计区间最长 %d 年", "統計區間最長 %d 年", "A period can be at most %d years"},
		"tripStats.tooManyTrips":   {"该数字背后的运单超过 %d 趟，请缩小区间或范围", "該數字背後的運單超過 %d 趟，請縮小區間或範圍", "More than %d trips make up this number: narrow the period or the scope"},
		"tripStats.total":          {"合计（%s 至 %s）", "合計（%s 至 %s）", "Total (%s to %s)"},

		"export.tripStats.car":      {"车辆统计", "車輛統計", "Car statistics"},
		"export.tripStats.car2":     {"车辆统计（销售公司）", "車輛統計（銷售公司）", "Car statistics (sales company)"},
		"export.tripStats.company":  {"承运单位统计", "承運單位統計", "Carrier statistics"},
		"export.tripStats.company2": {"销售公司统计", "銷售公司統計", "Sales company statistics"},
		"export.tripStats.product":  {"油品运输统计", "油品運輸統計", "Product statistics"},
		"export.tripStats.product2": {"油品运输统计（销售公司）", "油品運輸統計（銷售公司）", "Product statistics (sales company)"},

		"field.tripStats.period":             {"统计区间", "統計區間", "Period"},
		"field.tripStats.sortField":          {"排序字段", "排序欄位", "Sort column"},
		"field.tripStats.kind":               {"统计类型", "統計類型", "Statistics kind"},
		"field.tripStats.only":               {"明细类型", "明細類型", "Detail kind"},
		"field.tripStats.key":                {"统计行", "統計行", "Row"},
		"field.tripStats.plate":              {"车牌号", "車牌號", "Plate"},
		"field.tripStats.group":              {"承运单位", "承運單位", "Carrier"},
		"field.tripStats.company":            {"承运单位", "承運單位", "Carrier"},
		"field.tripStats.owner":              {"所属单位", "所屬單位", "Company"},
		"field.tripStats.salesCompany":       {"销售公司", "銷售公司", "Sales company"},
		"field.tripStats.product":            {"油品", "油品", "Product"},
		"field.tripStats.trips":              {"趟数", "趟數", "Trips"},
		"field.tripStats.shippedVt":          {"发油量 Vt (L)", "發油量 Vt (L)", "Shipped Vt (L)"},
		"field.tripStats.shippedV20":         {"发油量 V20 (L)", "發油量 V20 (L)", "Shipped V20 (L)"},
		"field.tripStats.shippedT":           {"发油质量 (t)", "發油質量 (t)", "Shipped (t)"},
		"field.tripStats.receivedV20":        {"收油量 V20 (L)", "收油量 V20 (L)", "Received V20 (L)"},
		"field.tripStats.lossL":              {"运损 (L)", "運損 (L)", "Loss (L)"},
		"field.tripStats.lossRatePct":        {"运损率 (%)", "運損率 (%)", "Loss rate (%)"},
		"field.tripStats.km":                 {"重载里程 (km)", "重載里程 (km)", "Loaded km"},
		"field.tripStats.tonKm":              {"吨公里", "噸公里", "Ton-km"},
		"field.tripStats.avgOutToArrivalMin": {"平均出库到站 (分钟)", "平均出庫到站 (分鐘)", "Avg. depot to arrival (min)"},
		"field.tripStats.abnormalOpenings":   {"异常开启 (次)", "異常開啟 (次)", "Abnormal openings"},
		"field.tripStats.overAllowance":      {"超标趟数", "超標趟數", "Trips over allowance"},
	})
}

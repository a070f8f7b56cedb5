package i18n

// Texts of the transport process views (internal/waybill/views, D46).
func init() {
	merge(map[string][3]string{
		"wbviews.endBeforeStart": {"结束时间必须晚于开始时间", "結束時間必須晚於開始時間", "The end time must be later than the start time"},
		"wbviews.within":         {"未超标", "未超標", "Within"},
		"wbviews.over":           {"超标", "超標", "Over"},
		"wbviews.totals":         {"合计（%d 趟）", "合計（%d 趟）", "Total (%d trips)"},
		"wbviews.overCount":      {"超标 %d 趟", "超標 %d 趟", "%d over"},
		"export.transportRecord": {"运输记录", "運輸記錄", "Transport record"},

		"field.wbviews.waybillId":       {"运单", "運單", "Waybill"},
		"field.wbviews.state":           {"运单状态", "運單狀態", "Waybill state"},
		"field.wbviews.over":            {"是否超标", "是否超標", "Over allowance"},
		"field.wbviews.no":              {"运单号", "運單號", "Waybill no."},
		"field.wbviews.plate":           {"车牌号", "車牌號", "Plate"},
		"field.wbviews.group":           {"承运单位", "承運單位", "Carrier"},
		"field.wbviews.depot":           {"油库", "油庫", "Depot"},
		"field.wbviews.destinations":    {"目的站", "目的站", "Destinations"},
		"field.wbviews.departAt":        {"出库时间", "出庫時間", "Left depot"},
		"field.wbviews.arriveAt":        {"到站时间", "到站時間", "Arrived"},
		"field.wbviews.closedAt":        {"完结时间", "完結時間", "Finished"},
		"field.wbviews.shippedV20":      {"发油量 V20 (L)", "發油量 V20 (L)", "Shipped V20 (L)"},
		"field.wbviews.shippedMassT":    {"发油质量 (t)", "發油質量 (t)", "Shipped mass (t)"},
		"field.wbviews.receivedV20":     {"收油量 V20 (L)", "收油量 V20 (L)", "Received V20 (L)"},
		"field.wbviews.receivedSource":  {"收油量来源", "收油量來源", "Received from"},
		"field.wbviews.lossL":           {"运损 (L)", "運損 (L)", "Loss (L)"},
		"field.wbviews.lossRatePct":     {"运损率 (%)", "運損率 (%)", "Loss rate (%)"},
		"field.wbviews.allowedPct":      {"允许损耗率 (%)", "允許損耗率 (%)", "Allowance (%)"},
		"field.wbviews.loadedKm":        {"重载里程 (km)", "重載里程 (km)", "Loaded km"},
		"field.wbviews.tonKm":           {"吨公里", "噸公里", "Ton-km"},
		"field.wbviews.outToArrivalMin": {"出库到到站 (分钟)", "出庫到到站 (分鐘)", "Out to arrival (min)"},
	})
}

package i18n

// Texts of the lead seals (internal/seal, leadSealRecord, D53).
func init() {
	merge(map[string][3]string{
		"leadSeal.rangeReversed": {"结束时间必须晚于开始时间", "結束時間必須晚於開始時間", "The end time must be later than the start time"},
		"leadSeal.totals": {"合计 %d 个铅封：已施封 %d，到站解封 %d，途中破封 %d", "合計 %d 個鉛封：已施封 %d，到站解封 %d，途中破封 %d",
			"Total %d seals: applied %d, broken at the destination %d, broken away %d"},
		"leadSeal.state.1": {"已施封", "已施封", "Applied"},
		"leadSeal.state.2": {"到站解封", "到站解封", "Broken at the destination"},
		"leadSeal.state.3": {"途中破封", "途中破封", "Broken away"},
		"leadSeal.kind.1":  {"铅封号重复使用", "鉛封號重複使用", "Number reused"},
		"leadSeal.kind.2":  {"途中破封", "途中破封", "Broken away from the destination"},
		"leadSeal.kind.3":  {"无铅封出库", "無鉛封出庫", "Trip without seals"},
		"leadSeal.kind.4":  {"铅封号不符", "鉛封號不符", "Number mismatch"},

		"leadSeal.detail.reused":       {"该号已于 %[2]s 用于运单 %[1]s", "該號已於 %[2]s 用於運單 %[1]s", "Already applied on waybill %s at %s"},
		"leadSeal.detail.brokenAway":   {"在目的站围栏外破封", "在目的站圍欄外破封", "Broken outside the destination's fence"},
		"leadSeal.detail.leftUnsealed": {"未施封即离开油库", "未施封即離開油庫", "Left the depot before it was sealed"},
		"leadSeal.detail.noRecord":     {"无装油记录，无铅封号", "無裝油記錄，無鉛封號", "No load record, no seal numbers"},
		"leadSeal.detail.unsealed":     {"仓 %s 无铅封号", "倉 %s 無鉛封號", "Compartment %s without a seal number"},
		"leadSeal.detail.sep":          {"；", "；", "; "},
		"leadSeal.detail.mismatch":     {"应为 %s，查得 %s", "應為 %s，查得 %s", "Expected %s, found %s"},

		"export.leadSeal":          {"铅封记录", "鉛封記錄", "Lead seals"},
		"export.leadSealIncidents": {"铅封异常", "鉛封異常", "Lead seal incidents"},

		"field.leadSeal.sealNo":      {"铅封号", "鉛封號", "Seal no."},
		"field.leadSeal.plate":       {"车牌号", "車牌號", "Plate"},
		"field.leadSeal.group":       {"承运单位", "承運單位", "Carrier"},
		"field.leadSeal.compartment": {"仓号", "倉號", "Compartment"},
		"field.leadSeal.waybillNo":   {"运单号", "運單號", "Waybill no."},
		"field.leadSeal.depot":       {"施封油库", "施封油庫", "Depot"},
		"field.leadSeal.appliedAt":   {"施封时间", "施封時間", "Applied at"},
		"field.leadSeal.appliedBy":   {"施封人", "施封人", "Applied by"},
		"field.leadSeal.brokenAt":    {"解封/破封时间", "解封/破封時間", "Broken at"},
		"field.leadSeal.brokenPlace": {"解封/破封地点", "解封/破封地點", "Broken where"},
		"field.leadSeal.state":       {"状态", "狀態", "State"},
		"field.leadSeal.incidents":   {"异常数", "異常數", "Incidents"},
		"field.leadSeal.kind":        {"异常类型", "異常類型", "Kind"},
		"field.leadSeal.t":           {"时间", "時間", "Time"},
		"field.leadSeal.place":       {"地点", "地點", "Place"},
		"field.leadSeal.detail":      {"详情", "詳情", "Detail"},
	})
}

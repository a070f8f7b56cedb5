package i18n

// Texts of the transport process (issue 15, internal/waybill/process): the differences page, its
// export, the evidence of a difference, the operator's corrections and received volumes.
func init() {
	merge(map[string][3]string{
		"field.wbpReason":      {"原因", "原因", "Reason"},
		"field.wbpWaybillId":   {"运单", "運單", "Waybill"},
		"field.wbpDiffKind":    {"差异类型", "差異類型", "Difference kind"},
		"field.wbpState":       {"运单状态", "運單狀態", "Waybill state"},
		"field.wbpReceivedV20": {"实收体积(V20)", "實收體積(V20)", "Received volume (V20)"},
		"field.wbpDestSeq":     {"目的站序号", "目的站序號", "Destination number"},

		"module.transportProcess":    {"运输过程", "運輸過程", "Transport process"},
		"action.diffReview":          {"审核差异", "審核差異", "Review a difference"},
		"action.stateCorrect":        {"更正运单状态", "更正運單狀態", "Correct a trip state"},
		"action.receivedEnter":       {"录入收油量", "錄入收油量", "Enter a received volume"},
		"wbprocess.reviewed":         {"该差异已审核", "該差異已審核", "This difference has been reviewed already"},
		"wbprocess.notEnded":         {"运单尚未结束，结束后才能审核", "運單尚未結束，結束後才能審核", "The trip has not ended yet; review it once it has"},
		"wbprocess.notAtDestination": {"运单未在目的站卸油阶段，不能录入实收量", "運單未在目的站卸油階段，不能錄入實收量", "The trip is not at its destinations; a received volume cannot be entered now"},
		"wbprocess.destReceived":     {"该目的站已有实收量", "該目的站已有實收量", "This destination has a received volume already"},
		"wbprocess.status.0":         {"待审核", "待審核", "Open"},
		"wbprocess.status.1":         {"已审核", "已審核", "Reviewed"},

		// evidence: compartment, device, time, place
		"wbprocess.ev.device":      {"%d 号仓%s %s 打开 %s", "%d 號倉%s %s 打開 %s", "compartment %d %s opened %s %s"},
		"wbprocess.ev.seal.2":      {"铅封 %s 被破坏 %s", "鉛封 %s 被破壞 %s", "seal broken %s %s"},
		"wbprocess.ev.seal.3":      {"铅封 %s 被解封 %s", "鉛封 %s 被解封 %s", "seal opened %s %s"},
		"wbprocess.ev.drop":        {"液位下降 %.1f L %s %s", "液位下降 %.1f L %s %s", "level dropped %.1f L %s %s"},
		"wbprocess.ev.sep":         {"；", "；", "; "},
		"wbprocess.ev.loss":        {"发运 %.1f L，实收 %.1f L（%s），重载 %.1f km", "發運 %.1f L，實收 %.1f L（%s），重載 %.1f km", "shipped %.1f L, received %.1f L (%s), loaded %.1f km"},
		"wbprocess.ev.unsealed":    {"%s 在%s状态驶出油库 %s", "%s 在%s狀態駛出油庫 %s", "%s left the depot while %s %s"},
		"wbprocess.export.name":    {"运输差异", "運輸差異", "Transport differences"},
		"wbprocess.col.waybillNo":  {"运单号", "運單號", "Waybill no."},
		"wbprocess.col.plate":      {"车牌号", "車牌號", "Plate"},
		"wbprocess.col.group":      {"所属机构", "所屬機構", "Group"},
		"wbprocess.col.kind":       {"差异类型", "差異類型", "Kind"},
		"wbprocess.col.time":       {"发生时间", "發生時間", "Time"},
		"wbprocess.col.lossL":      {"损耗(L)", "損耗(L)", "Loss (L)"},
		"wbprocess.col.lossRate":   {"损耗率(%)", "損耗率(%)", "Loss rate (%)"},
		"wbprocess.col.allowed":    {"允许损耗率(%)", "允許損耗率(%)", "Allowance (%)"},
		"wbprocess.col.evidence":   {"证据", "證據", "Evidence"},
		"wbprocess.col.status":     {"状态", "狀態", "Status"},
		"wbprocess.col.reviewer":   {"审核人", "審核人", "Reviewer"},
		"wbprocess.col.reviewedAt": {"审核时间", "審核時間", "Reviewed at"},
		"wbprocess.col.reason":     {"审核意见", "審核意見", "Review reason"},
	})
}

package i18n

// Texts of the after-sales fault records (internal/aftersales, /faultRecord, D69).
func init() {
	merge(map[string][3]string{
		"fault.tooMany":          {"%s最多 %d 条", "%s最多 %d 筆", "%s: at most %d"},
		"fault.visitRow":         {"第 %d 次上门：请填写%s", "第 %d 次上門：請填寫%s", "Visit %d: %s is required"},
		"fault.visitWhen":        {"第 %d 次上门的时间必须在报修之后、且不晚于现在", "第 %d 次上門的時間必須在報修之後、且不晚於現在", "Visit %d must be after the report and not in the future"},
		"fault.partRow":          {"第 %d 个配件：请填写名称，数量须在 0 到 10000 之间", "第 %d 個配件：請填寫名稱，數量須在 0 到 10000 之間", "Part %d: give its name and a quantity above 0 and at most 10000"},
		"fault.reportedFuture":   {"报修时间不能晚于现在", "報修時間不能晚於現在", "The report time cannot be in the future"},
		"fault.resolutionNeeded": {"关闭故障需要填写处理结果", "關閉故障需要填寫處理結果", "Closing a fault needs its resolution"},
		"fault.badMove":          {"故障不能从“%s”改为“%s”", "故障不能從「%s」改為「%s」", "A fault cannot go from \"%s\" to \"%s\""},
		"fault.alreadyClosed":    {"该故障已关闭", "該故障已關閉", "This fault is already closed"},
		"fault.sourceCar":        {"由离线记录或传感器事件生成的故障不能改到其他车辆", "由離線記錄或感測器事件產生的故障不能改到其他車輛", "A fault raised from an offline record or a sensor event stays with its vehicle"},
		"fault.rangeReversed":    {"结束时间必须晚于开始时间", "結束時間必須晚於開始時間", "The end time must be later than the start time"},

		"fault.state.open":         {"待处理", "待處理", "Open"},
		"fault.state.inProgress":   {"处理中", "處理中", "In progress"},
		"fault.state.waitingParts": {"待配件", "待配件", "Waiting for parts"},
		"fault.state.closed":       {"已关闭", "已關閉", "Closed"},

		"fault.type.terminal": {"车载终端", "車載終端", "Terminal"},
		"fault.type.probe":    {"液位探杆", "液位探桿", "Level probe"},
		"fault.type.lock":     {"电子锁", "電子鎖", "Electronic lock"},
		"fault.type.camera":   {"摄像头", "攝影機", "Camera"},
		"fault.type.wiring":   {"线路供电", "線路供電", "Wiring and power"},
		"fault.type.sim":      {"通信/SIM 卡", "通訊/SIM 卡", "Communication / SIM"},
		"fault.type.other":    {"其他", "其他", "Other"},

		"fault.bySystem":       {"系统", "系統", "System"},
		"fault.auto.offline":   {"车辆自 %s 起无上报（系统自动报修）", "車輛自 %s 起無上報（系統自動報修）", "No report from the vehicle since %s (raised by the system)"},
		"fault.auto.tankEvent": {"传感器故障：%s（系统自动报修）", "感測器故障：%s（系統自動報修）", "Sensor fault: %s (raised by the system)"},

		"field.fault.car":             {"车辆", "車輛", "Vehicle"},
		"field.fault.plate":           {"车牌号", "車牌號", "Plate"},
		"field.fault.group":           {"所属机构", "所屬機構", "Group"},
		"field.fault.device":          {"故障设备", "故障設備", "Device"},
		"field.fault.type":            {"故障类型", "故障類型", "Fault type"},
		"field.fault.symptom":         {"故障现象", "故障現象", "Symptom"},
		"field.fault.reportedBy":      {"报修人", "報修人", "Reported by"},
		"field.fault.reportedAt":      {"报修时间", "報修時間", "Reported at"},
		"field.fault.technician":      {"维修人员", "維修人員", "Technician"},
		"field.fault.state":           {"状态", "狀態", "State"},
		"field.fault.visits":          {"上门记录", "上門記錄", "Visits"},
		"field.fault.visitAt":         {"上门时间", "上門時間", "visit time"},
		"field.fault.visitTechnician": {"上门人员", "上門人員", "technician"},
		"field.fault.visitWork":       {"处理内容", "處理內容", "work done"},
		"field.fault.parts":           {"更换配件", "更換配件", "Parts"},
		"field.fault.partName":        {"配件名称", "配件名稱", "part name"},
		"field.fault.resolution":      {"处理结果", "處理結果", "Resolution"},
		"field.fault.closedAt":        {"关闭时间", "關閉時間", "Closed at"},
		"field.fault.resolveMinutes":  {"处理时长（分钟）", "處理時長（分鐘）", "Time to resolve (min)"},
		"field.fault.source":          {"来源记录", "來源記錄", "Source record"},

		"export.fault":      {"售后记录", "售後記錄", "Fault records"},
		"module.fault":      {"售后记录", "售後記錄", "After-sales"},
		"action.faultClose": {"关闭故障", "關閉故障", "Close fault"},
		"oplog.fault":       {"%v（%v）", "%v（%v）", "%v (%v)"},
		"oplog.faultDetail": {"%v；现象：%v；处理结果：%v", "%v；現象：%v；處理結果：%v", "%v; symptom: %v; resolution: %v"},
	})
}

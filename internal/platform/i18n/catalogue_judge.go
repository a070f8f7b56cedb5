package i18n

// Texts of the car tank events (internal/tank/judge): event kinds, devices, the abnormal-unloading
// alarm detail with the litres lost, and the exports of carEventRecord and AllDataValveStates.
func init() {
	merge(map[string][3]string{
		"alarm.detail.abnormalUnload.2": {"涉及的仓：%s；液位下降 %s 升", "涉及的倉：%s；液位下降 %s 公升", "Compartments: %s; level fell by %s L"},

		"judge.kind.load":          {"装油", "裝油", "Loading"},
		"judge.kind.unload":        {"卸油", "卸油", "Unloading"},
		"judge.kind.dropMoving":    {"行驶中液位下降", "行駛中液位下降", "Level fell while moving"},
		"judge.kind.dropOutside":   {"站外液位下降", "站外液位下降", "Level fell outside fences"},
		"judge.kind.theft":         {"疑似盗油", "疑似盜油", "Suspected theft"},
		"judge.kind.sensorStuck":   {"液位计卡滞", "液位計卡滯", "Probe stuck"},
		"judge.kind.sensorJump":    {"液位计跳变", "液位計跳變", "Probe jump"},
		"judge.kind.sensorMissing": {"液位计缺失", "液位計缺失", "Probe missing"},
		"judge.kind.coverOpen":     {"人孔盖打开", "人孔蓋打開", "Cover open"},
		"judge.kind.valveOpen":     {"阀门打开", "閥門打開", "Valve open"},

		"judge.device.0": {"小人孔盖", "小人孔蓋", "Small manhole cover"},
		"judge.device.1": {"人孔盖", "人孔蓋", "Manhole cover"},
		"judge.device.2": {"卸油阀", "卸油閥", "Discharge valve"},
		"judge.device.3": {"底阀", "底閥", "Bottom valve"},

		"judge.detail.opening": {"期间有盖或阀打开", "期間有蓋或閥打開", "a cover or valve was open"},
		"judge.detail.parked":  {"站外停车期间", "站外停車期間", "while parked outside fences"},

		"judge.state.open":      {"打开", "打開", "open"},
		"judge.state.closed":    {"关闭", "關閉", "closed"},
		"judge.state.locked":    {"上锁", "上鎖", "locked"},
		"judge.state.fault":     {"故障", "故障", "fault"},
		"judge.state.absent":    {"未安装", "未安裝", "not fitted"},
		"judge.outside":         {"站外", "站外", "Outside fences"},
		"judge.whole":           {"整车", "整車", "Whole car"},
		"judge.export.events":   {"罐车事件", "罐車事件", "Tanker events"},
		"judge.export.valves":   {"阀门状态记录", "閥門狀態記錄", "Valve state changes"},
		"judge.col.plate":       {"车牌号", "車牌號", "Plate"},
		"judge.col.group":       {"所属分组", "所屬分組", "Group"},
		"judge.col.compartment": {"仓号", "倉號", "Compartment"},
		"judge.col.kind":        {"事件类型", "事件類型", "Event"},
		"judge.col.place":       {"地点", "地點", "Place"},
		"judge.col.start":       {"开始时间", "開始時間", "Start"},
		"judge.col.end":         {"结束时间", "結束時間", "End"},
		"judge.col.before":      {"前体积(L)", "前體積(L)", "Before (L)"},
		"judge.col.after":       {"后体积(L)", "後體積(L)", "After (L)"},
		"judge.col.beforeV20":   {"前V20(L)", "前V20(L)", "Before V20 (L)"},
		"judge.col.afterV20":    {"后V20(L)", "後V20(L)", "After V20 (L)"},
		"judge.col.change":      {"变化量(L)", "變化量(L)", "Change (L)"},
		"judge.col.detail":      {"说明", "說明", "Detail"},
		"judge.col.time":        {"时间", "時間", "Time"},
		"judge.col.device":      {"设备", "設備", "Device"},
		"judge.col.prev":        {"变化前", "變化前", "Before"},
		"judge.col.state":       {"变化后", "變化後", "After"},
		"judge.col.lng":         {"经度", "經度", "Longitude"},
		"judge.col.lat":         {"纬度", "緯度", "Latitude"},
		"field.compartment":     {"仓号", "倉號", "compartment"},
		"field.eventKind":       {"事件类型", "事件類型", "event type"},
		"field.deviceKind":      {"设备类型", "設備類型", "device type"},
	})
}

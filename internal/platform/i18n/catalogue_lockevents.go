package i18n

// Texts of the lock events and remote lock commands (blueLockRecord, issue 16): errors, fields, the
// export's sheet and the codes of lock.Event*, lock.Method*, lock.Device*. The console has its own
// under lockEvents.
func init() {
	merge(map[string][3]string{
		"alarm.type.lockTampered":   {"锁具破坏报警", "鎖具破壞報警", "Lock tampered"},
		"alarm.type.lockOpenedAway": {"围栏外开锁（载货途中）", "圍欄外開鎖（載貨途中）", "Lock opened outside the fences (loaded)"},
		"alarm.detail.lock": {"锁 %s（%s 号仓 %s），方式：%s，地点：%s", "鎖 %s（%s 號倉 %s），方式：%s，地點：%s",
			"Lock %s (compartment %s, %s), method: %s, place: %s"},
		"telemetry.item.0xe6":          {"锁事件", "鎖事件", "Lock event"},
		"lockEvents.rangeReversed":     {"结束时间早于开始时间", "結束時間早於開始時間", "The end time is before the start time"},
		"lockEvents.noGateway":         {"终端网关未启用，无法下发开关锁指令", "終端網關未啟用，無法下發開關鎖指令", "The terminal gateway is not running: lock commands cannot be sent"},
		"field.lockEvents.event":       {"事件", "事件", "Event"},
		"field.lockEvents.method":      {"方式", "方式", "Method"},
		"field.lockEvents.fence":       {"围栏", "圍欄", "Fence"},
		"field.lockEvents.action":      {"开关锁动作", "開關鎖動作", "Lock action"},
		"field.lockEvents.time":        {"事件时间", "事件時間", "Event time"},
		"field.lockEvents.plate":       {"车牌号", "車牌號", "Plate"},
		"field.lockEvents.group":       {"所属机构", "所屬機構", "Group"},
		"field.lockEvents.serial":      {"锁编号", "鎖編號", "Lock serial"},
		"field.lockEvents.compartment": {"仓号", "倉號", "Compartment"},
		"field.lockEvents.device":      {"部位", "部位", "Device"},
		"field.lockEvents.battery":     {"电量(%)", "電量(%)", "Battery (%)"},
		"field.lockEvents.place":       {"地点", "地點", "Place"},
		"field.lockEvents.lat":         {"纬度", "緯度", "Latitude"},
		"field.lockEvents.lon":         {"经度", "經度", "Longitude"},
		"field.lockEvents.waybill":     {"运单号", "運單號", "Waybill"},
		"field.lockEvents.command":     {"平台指令号", "平台指令號", "Platform command"},
		"export.lockEvents":            {"蓝牙锁记录", "藍牙鎖記錄", "Lock events"},
		"lockEvents.fence.in":          {"围栏内", "圍欄內", "Inside a fence"},
		"lockEvents.fence.out":         {"围栏外", "圍欄外", "Outside every fence"},
		"lockEvents.device.0":          {"小人孔盖", "小人孔蓋", "Small manhole cover"},
		"lockEvents.device.1":          {"人孔盖", "人孔蓋", "Manhole cover"},
		"lockEvents.device.2":          {"卸油阀", "卸油閥", "Discharge valve"},
		"lockEvents.device.3":          {"底阀", "底閥", "Bottom valve"},
		"lockEvents.event.1":           {"开锁", "開鎖", "Opened"},
		"lockEvents.event.2":           {"关锁", "關鎖", "Closed"},
		"lockEvents.event.3":           {"破坏报警", "破壞報警", "Tampered"},
		"lockEvents.event.4":           {"电量低", "電量低", "Low battery"},
		"lockEvents.event.5":           {"离线", "離線", "Offline"},
		"lockEvents.event.6":           {"上线", "上線", "Online"},
		"lockEvents.method.0":          {"无", "無", "None"},
		"lockEvents.method.1":          {"远程指令", "遠程指令", "Remote command"},
		"lockEvents.method.2":          {"手机蓝牙", "手機藍牙", "Phone (BLE)"},
		"lockEvents.method.3":          {"本地钥匙/密码", "本地鑰匙/密碼", "Local key / keypad"},
	})
}

package i18n

// Texts of alarm management (internal/alarm): type names (the JT/T 808 bits use live.alarm.<bit>),
// groups, details, processing states, validation and the export.
func init() {
	merge(map[string][3]string{
		"alarm.type.abnormalUnload":   {"异常卸油", "異常卸油", "Abnormal unloading"},
		"alarm.type.sealBroken":       {"施封破坏", "施封破壞", "Seal broken"},
		"alarm.type.levelDrop":        {"液位异常下降", "液位異常下降", "Level drop without unloading"},
		"alarm.type.lockOpened":       {"非授权开锁", "非授權開鎖", "Lock opened without authorisation"},
		"alarm.type.speeding":         {"超速（平台判定）", "超速（平台判定）", "Speeding (platform)"},
		"alarm.type.overtimeParking":  {"超时停车（平台判定）", "超時停車（平台判定）", "Overtime parking (platform)"},
		"alarm.type.offline":          {"离线超时", "離線超時", "Offline too long"},
		"alarm.type.fenceIn":          {"进入站点围栏", "進入站點圍欄", "Entered a station fence"},
		"alarm.type.fenceOut":         {"离开站点围栏", "離開站點圍欄", "Left a station fence"},
		"alarm.type.identityConflict": {"终端身份冲突", "終端身分衝突", "Terminal identity conflict"},

		"alarm.group.safety":    {"安全类", "安全類", "Safety"},
		"alarm.group.driving":   {"驾驶类", "駕駛類", "Driving"},
		"alarm.group.device":    {"设备类", "設備類", "Device"},
		"alarm.group.operation": {"运营类", "營運類", "Operation"},

		"alarm.detail.speeding":        {"限速 %s km/h，最高 %s km/h", "限速 %s km/h，最高 %s km/h", "Limit %s km/h, up to %s km/h"},
		"alarm.detail.fenceIn":         {"站点：%s", "站點：%s", "Station: %s"},
		"alarm.detail.fenceOut":        {"站点：%s", "站點：%s", "Station: %s"},
		"alarm.detail.abnormalUnload":  {"打开的仓：%s", "打開的倉：%s", "Open compartments: %s"},
		"alarm.detail.lockOpened":      {"开锁的仓：%s", "開鎖的倉：%s", "Unlocked compartments: %s"},
		"alarm.detail.levelDrop":       {"下降 %s 升", "下降 %s 公升", "Dropped by %s L"},
		"alarm.detail.overtimeParking": {"停车超过 %s 分钟", "停車超過 %s 分鐘", "Stopped longer than %s min"},
		"alarm.detail.offline":         {"超过 %s 分钟无上报", "超過 %s 分鐘無上報", "No report for more than %s min"},
		"alarm.detail.identityConflict": {"另一连接 %s 以本终端的身份发送 %s，已拒绝 %s 次", "另一連線 %s 以本終端的身分傳送 %s，已拒絕 %s 次",
			"Another connection, %s, sent %s as this terminal; refused %s times"},

		"alarm.state.0": {"未处理", "未處理", "Unprocessed"},
		"alarm.state.1": {"已处理", "已處理", "Processed"},
		"alarm.state.2": {"待进一步处理", "待進一步處理", "Pending further process"},

		"alarm.push":           {"%s 发生 %s级报警：%s", "%s 發生 %s級報警：%s", "%s: Level %s alarm, %s"},
		"alarm.endBeforeStart": {"结束时间不能早于开始时间", "結束時間不能早於開始時間", "The end time cannot be before the start time"},
		"alarm.rangeTooLong":   {"查询时间范围不能超过 %d 天", "查詢時間範圍不能超過 %d 天", "The time range cannot be longer than %d days"},
		"alarm.noCommands":     {"指令记录不可用", "指令記錄不可用", "The command log is not available"},
		"alarm.controlBusy":    {"布控模式正在被修改，请重试", "布控模式正在被修改，請重試", "The control mode is being changed, please try again"},

		"field.alarmType":       {"报警类型", "報警類型", "Alarm type"},
		"field.alarmLevel":      {"报警级别", "報警級別", "Alarm level"},
		"field.alarmGroup":      {"报警分组", "報警分組", "Alarm group"},
		"field.alarmEnabled":    {"是否启用", "是否啟用", "Enabled"},
		"field.alarmPush":       {"是否推送", "是否推送", "Push"},
		"field.alarmState":      {"处理状态", "處理狀態", "Processing state"},
		"field.watched":         {"布控报警类型", "布控報警類型", "Watched alarm types"},
		"field.levelDropLitres": {"液位下降阈值", "液位下降閾值", "Level drop threshold"},
		"field.limit":           {"条数", "條數", "Limit"},

		"export.alarms":         {"报警信息", "報警信息", "Alarms"},
		"alarm.col.type":        {"报警类型", "報警類型", "Alarm type"},
		"alarm.col.level":       {"报警级别", "報警級別", "Level"},
		"alarm.col.start":       {"开始时间", "開始時間", "Start"},
		"alarm.col.end":         {"结束时间", "結束時間", "End"},
		"alarm.col.speed":       {"速度(km/h)", "速度(km/h)", "Speed (km/h)"},
		"alarm.col.detail":      {"详情", "詳情", "Details"},
		"alarm.col.state":       {"处理状态", "處理狀態", "State"},
		"alarm.col.handler":     {"处理人", "處理人", "Handled by"},
		"alarm.col.handledTime": {"处理时间", "處理時間", "Handled at"},
		"alarm.col.remark":      {"备注", "備註", "Remark"},

		"module.alarm": {"报警管理", "報警管理", "Alarm management"},
		"action.deal":  {"报警处理", "報警處理", "Alarm processing"},
	})
}

package i18n

// Texts of the operation log's targets and details (internal/audit Text): rendered in the reader's
// language when the log is read. The formats use %v only (arguments come back from JSON).
func init() {
	merge(map[string][3]string{
		"oplog.yes": {"是", "是", "yes"},
		"oplog.no":  {"否", "否", "no"},

		"oplog.level.1": {"I级", "I級", "Level I"},
		"oplog.level.2": {"II级", "II級", "Level II"},
		"oplog.level.3": {"III级", "III級", "Level III"},
		"oplog.level.4": {"IV级", "IV級", "Level IV"},
		"oplog.level.5": {"V级", "V級", "Level V"},

		"oplog.alarmCount":   {"%v 条报警", "%v 條報警", "%v alarms"},
		"oplog.alarmDeal":    {"处理状态：%v；备注：%v", "處理狀態：%v；備註：%v", "State: %v; remark: %v"},
		"oplog.alarmControl": {"布控报警类型 %v 种，限速 %v km/h，超时停车 %v 分钟，离线 %v 分钟，液位下降 %v 升", "布控報警類型 %v 種，限速 %v km/h，超時停車 %v 分鐘，離線 %v 分鐘，液位下降 %v 公升", "%v watched alarm types, speed limit %v km/h, parking %v min, offline %v min, level drop %v L"},
		"oplog.alarmType":    {"级别 %v→%v，分组 %v→%v，启用 %v→%v，推送 %v→%v", "級別 %v→%v，分組 %v→%v，啟用 %v→%v，推送 %v→%v", "level %v→%v, group %v→%v, enabled %v→%v, push %v→%v"},
		"oplog.helpDeal":     {"%v；处理方式：%v；状态：%v", "%v；處理方式：%v；狀態：%v", "%v; answer: %v; state: %v"},
		"oplog.bind":         {"车辆 ID：%v，SIM 卡 ID：%v", "車輛 ID：%v，SIM 卡 ID：%v", "vehicle ID %v, SIM card ID %v"},
		"oplog.carPassword":  {"同步状态：%v", "同步狀態：%v", "sync state: %v"},
		"oplog.stationType":  {"站点类型：%v", "站點類型：%v", "station type: %v"},
		"oplog.channels":     {"%v 个视频通道", "%v 個視訊通道", "%v video channels"},
		"oplog.sensor":       {"外设标识：%v；解码器：%v", "外設標識：%v；解碼器：%v", "identification %v; decoder %v"},

		"oplog.decoder.level": {"液位探杆", "液位探桿", "Level probe"},
		"oplog.decoder.lock":  {"电子锁/阀门", "電子鎖/閥門", "Lock / valve"},

		"oplog.controlKind.car":   {"车辆布控", "車輛布控", "vehicle control mode"},
		"oplog.controlKind.group": {"组织布控", "組織布控", "group control mode"},

		"oplog.status.enabled":  {"启用", "啟用", "enabled"},
		"oplog.status.disabled": {"停用", "停用", "disabled"},

		"oplog.groupCol.title": {"标题", "標題", "title"},
		"oplog.groupCol.theme": {"主题", "主題", "theme"},
		"oplog.groupCol.logo":  {"标志", "標誌", "logo"},
		"oplog.changed.1":      {"修改了：%v", "修改了：%v", "changed: %v"},
		"oplog.changed.2":      {"修改了：%v、%v", "修改了：%v、%v", "changed: %v, %v"},
		"oplog.changed.3":      {"修改了：%v、%v、%v", "修改了：%v、%v、%v", "changed: %v, %v, %v"},

		"alarm.levelName": {"%s级", "%s級", "Level %s"},
	})
}

package i18n

// Texts of remote calibration (internal/tank/calib, page manager/parameter).
func init() {
	merge(map[string][3]string{
		"calib.p.heartbeat":      {"心跳间隔", "心跳間隔", "Heartbeat interval"},
		"calib.p.reportInterval": {"缺省汇报间隔", "預設回報間隔", "Default report interval"},
		"calib.p.sleepInterval":  {"休眠汇报间隔", "休眠回報間隔", "Sleep report interval"},
		"calib.p.mainServer":     {"主服务器地址", "主伺服器位址", "Main server address"},
		"calib.p.serverPort":     {"服务器 TCP 端口", "伺服器 TCP 埠", "Server TCP port"},
		"calib.p.maxSpeed":       {"最高速度", "最高速度", "Maximum speed"},
		"calib.p.overspeedTime":  {"超速持续时间", "超速持續時間", "Overspeed duration"},
		"calib.p.zeroOffset":     {"零点偏移", "零點偏移", "Zero offset"},
		"calib.p.probeLength":    {"探杆长度", "探桿長度", "Probe length"},
		"calib.p.tankHeight":     {"罐体高度（满量程）", "罐體高度（滿量程）", "Tank height (full scale)"},
		"calib.p.tempOffset":     {"温度偏移", "溫度偏移", "Temperature offset"},
		"calib.p.filter":         {"滤波窗口", "濾波窗口", "Filter window"},
		"calib.compartmentParam": {"%d 号仓 %s", "%d 號艙 %s", "Compartment %d %s"},

		"calib.unit.s":       {"秒", "秒", "s"},
		"calib.unit.kmh":     {"km/h", "km/h", "km/h"},
		"calib.unit.mm":      {"毫米", "毫米", "mm"},
		"calib.unit.decideg": {"0.1 °C", "0.1 °C", "0.1 °C"},

		"calib.err.range":       {"%s应在 %d 到 %d%s之间", "%s應在 %d 到 %d%s之間", "%s must be between %d and %d%s"},
		"calib.err.length":      {"%s的长度应为 %d 到 %d 个字符", "%s的長度應為 %d 到 %d 個字元", "%s must be %d to %d characters long"},
		"calib.err.chars":       {"%s只能包含字母、数字、点、短横线和下划线", "%s只能包含字母、數字、點、短橫線和底線", "%s may contain only letters, digits, dots, hyphens and underscores"},
		"calib.err.integer":     {"%s必须是整数", "%s必須是整數", "%s must be a whole number"},
		"calib.err.text":        {"%s必须是文本", "%s必須是文字", "%s must be text"},
		"calib.err.unknown":     {"不支持的参数 %s", "不支援的參數 %s", "Parameter %s is not supported"},
		"calib.err.duplicate":   {"%s重复出现", "%s重複出現", "%s is given twice"},
		"calib.err.compartment": {"%s不存在：车辆 %s 只有 %d 个仓", "%s不存在：車輛 %s 只有 %d 個艙", "%s does not exist: %s has %d compartments"},
		"calib.offline":         {"车辆 %s 的终端不在线，指令未下发", "車輛 %s 的終端不在線，指令未下發", "The terminal of %s is offline; nothing was sent"},

		"calib.kind.read": {"读取参数", "讀取參數", "Read"},
		"calib.kind.set":  {"下发参数", "下發參數", "Set"},

		"calib.state.sent":         {"已下发，等待应答", "已下發，等待應答", "Sent, waiting for the answer"},
		"calib.state.acknowledged": {"终端已应答", "終端已應答", "Acknowledged"},
		"calib.state.failed":       {"终端拒绝", "終端拒絕", "Refused"},
		"calib.state.timeout":      {"终端未应答（超时）", "終端未應答（逾時）", "No answer (timed out)"},
		"calib.state.offline":      {"终端不在线", "終端不在線", "Terminal offline"},

		"calib.result.1":     {"执行失败", "執行失敗", "failure"},
		"calib.result.2":     {"消息有误（参数格式或取值不被接受）", "訊息有誤（參數格式或取值不被接受）", "message error (a value was not accepted)"},
		"calib.result.3":     {"终端不支持", "終端不支援", "not supported"},
		"calib.result.other": {"未知结果", "未知結果", "unknown result"},

		"calib.msg.failed":            {"车辆 %s 的终端拒绝了指令：%s", "車輛 %s 的終端拒絕了指令：%s", "The terminal of %s refused the command: %s"},
		"calib.msg.read.sent":         {"已向车辆 %s 的终端发送读取指令，等待应答…", "已向車輛 %s 的終端發送讀取指令，等待應答…", "Reading the parameters of %s, waiting for the terminal…"},
		"calib.msg.read.acknowledged": {"已读取车辆 %s 的终端参数", "已讀取車輛 %s 的終端參數", "The parameters of %s were read"},
		"calib.msg.read.timeout":      {"车辆 %s 的终端未在规定时间内应答读取指令", "車輛 %s 的終端未在規定時間內應答讀取指令", "The terminal of %s did not answer the read in time"},
		"calib.msg.read.offline":      {"车辆 %s 的终端不在线，未能读取", "車輛 %s 的終端不在線，未能讀取", "The terminal of %s is offline; nothing was read"},
		"calib.msg.set.sent":          {"已向车辆 %s 的终端下发参数，等待应答…", "已向車輛 %s 的終端下發參數，等待應答…", "Sending the parameters to %s, waiting for the terminal…"},
		"calib.msg.set.acknowledged":  {"车辆 %s 的终端已接受新参数", "車輛 %s 的終端已接受新參數", "The terminal of %s accepted the new values"},
		"calib.msg.set.timeout":       {"车辆 %s 的终端未在规定时间内应答，参数是否生效未知，请重新读取确认", "車輛 %s 的終端未在規定時間內應答，參數是否生效未知，請重新讀取確認", "The terminal of %s did not answer in time; read again to see whether the values took effect"},
		"calib.msg.set.offline":       {"车辆 %s 的终端不在线，参数未下发", "車輛 %s 的終端不在線，參數未下發", "The terminal of %s is offline; nothing was sent"},

		"calib.export":        {"远程标定记录", "遠端標定記錄", "Remote calibration history"},
		"calib.col.createdAt": {"时间", "時間", "Time"},
		"calib.col.plate":     {"车牌号", "車牌號", "Plate"},
		"calib.col.kind":      {"操作", "操作", "Operation"},
		"calib.col.user":      {"操作人", "操作人", "User"},
		"calib.col.state":     {"状态", "狀態", "State"},
		"calib.col.changes":   {"参数（原值 → 新值）", "參數（原值 → 新值）", "Parameters (old → new)"},
		"calib.col.doneAt":    {"应答时间", "應答時間", "Answered at"},

		"field.calib.ids":    {"参数 ID 列表", "參數 ID 列表", "Parameter IDs"},
		"field.calib.params": {"参数", "參數", "Parameters"},
		"field.calib.kind":   {"操作类型", "操作類型", "Operation"},
		"field.calib.state":  {"状态", "狀態", "State"},

		"module.calib":   {"远程标定", "遠端標定", "Remote calibration"},
		"action.set":     {"下发参数", "下發參數", "Set parameters"},
		"oplog.calibSet": {"参数（原值 -> 新值）：%v", "參數（原值 -> 新值）：%v", "Parameters (old -> new): %v"},
	})
}

package i18n

// Texts of the operator's downlink commands (internal/telemetry command_send.go).
func init() {
	merge(map[string][3]string{
		"command.noTerminal":         {"车辆 %s 未绑定终端，无法下发指令", "車輛 %s 未綁定終端，無法下發指令", "Vehicle %s has no terminal to send the command to"},
		"command.offline":            {"车辆 %s 的终端不在线，指令未下发", "車輛 %s 的終端不在線，指令未下發", "The terminal of %s is offline; the command was not sent"},
		"command.timeout":            {"车辆 %s 的终端未在规定时间内应答", "車輛 %s 的終端未在規定時間內應答", "The terminal of %s did not answer in time"},
		"command.failed":             {"车辆 %s 的终端未执行指令：%s", "車輛 %s 的終端未執行指令：%s", "The terminal of %s did not carry out the command: %s"},
		"field.text":                 {"下发内容", "下發內容", "Message text"},
		"field.kind":                 {"指令类型", "指令類型", "Command type"},
		"field.params":               {"参数", "參數", "Parameters"},
		"field.command.compartments": {"仓号", "倉號", "Compartment number"},

		// the terminal's reply (0x0001 result codes) and the stored command descriptions (command_text.go)
		"command.result.0":                  {"成功", "成功", "success"},
		"command.result.1":                  {"失败", "失敗", "failure"},
		"command.result.2":                  {"消息有误", "訊息有誤", "message error"},
		"command.result.3":                  {"不支持", "不支援", "not supported"},
		"command.result.other":              {"结果 %s", "結果 %s", "result %s"},
		"command.reply.position":            {"位置 %s,%s（%s）", "位置 %s,%s（%s）", "position %s,%s at %s"},
		"command.reply.recordings":          {"%s 段录像", "%s 段錄影", "%s recordings"},
		"command.reply.notEncoded":          {"指令无法编码：%s", "指令無法編碼：%s", "not encoded: %s"},
		"command.reply.closedBeforeSending": {"发送前连接已断开", "傳送前連線已中斷", "connection closed before sending"},
		"command.reply.closedBeforeAnswer":  {"应答前连接已断开", "應答前連線已中斷", "connection closed before the answer"},
		"command.reply.stoppedWaiting":      {"已停止等待应答", "已停止等待應答", "stopped waiting for the answer"},
		"command.reply.offline":             {"终端不在线", "終端不在線", "terminal offline"},
		"command.reply.timeout":             {"终端未应答", "終端未應答", "no answer"},
		"command.params.allCompartments":    {"全部仓", "全部倉", "all compartments"},
		"command.params.compartments":       {"%s 号仓", "%s 號倉", "compartments %s"},
		"command.params.separator":          {"、", "、", ", "},
		"command.params.localPassword":      {"本地开锁密码（0xE5）", "本地開鎖密碼（0xE5）", "local unlock password (0xE5)"},
		"command.kind.text":                 {"文本信息", "文字訊息", "Text message"},
		"command.kind.lock":                 {"关锁", "關鎖", "Lock"},
		"command.kind.unlock":               {"开锁", "開鎖", "Unlock"},
		"command.kind.queryParams":          {"查询参数", "查詢參數", "Query parameters"},
		"command.kind.setParams":            {"设置参数", "設定參數", "Set parameters"},
		"command.kind.setPassword":          {"下发车辆密码", "下發車輛密碼", "Set vehicle password"},
		"command.status.pending":            {"等待应答", "等待應答", "Waiting for the answer"},
		"command.status.ok":                 {"成功", "成功", "Succeeded"},
		"command.status.failed":             {"失败", "失敗", "Failed"},
		"command.status.timeout":            {"超时", "逾時", "Timed out"},
		"command.status.offline":            {"终端离线", "終端離線", "Terminal offline"},
		"command.params.help":               {"求助 %s（请求 ID %s），全部仓", "求助 %s（請求 ID %s），全部倉", "help request %s (request ID %s), all compartments"},
	})
}

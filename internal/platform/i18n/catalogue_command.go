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
	})
}

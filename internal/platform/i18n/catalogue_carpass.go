package i18n

// Texts of the car passwords and their viewing records (internal/carpass).
func init() {
	merge(map[string][3]string{
		"carPassword.format":       {"密码必须是 6 位数字", "密碼必須是 6 位數字", "The password must be exactly 6 digits"},
		"carPassword.notSet":       {"该车辆尚未设置密码", "該車輛尚未設定密碼", "No password has been set for this vehicle"},
		"field.carPassword.reason": {"查看原因", "查看原因", "Reason"},

		"carPassword.state.none":       {"未设置", "未設定", "Not set"},
		"carPassword.state.ok":         {"已同步", "已同步", "Synchronised"},
		"carPassword.state.sending":    {"下发中", "下發中", "Sending"},
		"carPassword.state.offline":    {"待下发（终端离线）", "待下發（終端離線）", "Pending (terminal offline)"},
		"carPassword.state.noTerminal": {"待下发（未绑定终端）", "待下發（未綁定終端）", "Pending (no terminal)"},
		"carPassword.state.timeout":    {"失败（终端未应答）", "失敗（終端未應答）", "Failed (no answer)"},
		"carPassword.state.refused":    {"失败（终端拒绝）", "失敗（終端拒絕）", "Failed (refused)"},
		"carPassword.state.error":      {"失败（下发出错）", "失敗（下發出錯）", "Failed (sending error)"},

		"carPassword.sync.ok":         {"密码已保存并下发到车辆 %s 的终端", "密碼已儲存並下發到車輛 %s 的終端", "The password was saved and the terminal of %s has it"},
		"carPassword.sync.sending":    {"密码已保存，正在下发到车辆 %s 的终端", "密碼已儲存，正在下發到車輛 %s 的終端", "The password was saved and is on its way to the terminal of %s"},
		"carPassword.sync.offline":    {"密码已保存，但车辆 %s 的终端不在线；终端上线后将自动下发", "密碼已儲存，但車輛 %s 的終端不在線；終端上線後將自動下發", "The password was saved; the terminal of %s is offline and will get it when it comes online"},
		"carPassword.sync.noTerminal": {"密码已保存，但车辆 %s 未绑定终端，无法下发", "密碼已儲存，但車輛 %s 未綁定終端，無法下發", "The password was saved, but %s has no terminal to send it to"},
		"carPassword.sync.timeout":    {"密码已保存，但车辆 %s 的终端未应答，请稍后重新下发", "密碼已儲存，但車輛 %s 的終端未應答，請稍後重新下發", "The password was saved, but the terminal of %s did not answer; resend it later"},
		"carPassword.sync.refused":    {"密码已保存，但车辆 %s 的终端拒绝了该密码", "密碼已儲存，但車輛 %s 的終端拒絕了該密碼", "The password was saved, but the terminal of %s refused it"},
		"carPassword.sync.error":      {"密码已保存，但下发到车辆 %s 时出错", "密碼已儲存，但下發到車輛 %s 時出錯", "The password was saved, but sending it to %s failed"},

		"carPassword.yes":             {"已设置", "已設定", "Set"},
		"carPassword.no":              {"未设置", "未設定", "Not set"},
		"carPassword.export":          {"车辆密码", "車輛密碼", "Vehicle passwords"},
		"carPassword.col.plate":       {"车牌号", "車牌號", "Plate"},
		"carPassword.col.group":       {"所属组织", "所屬組織", "Group"},
		"carPassword.col.terminal":    {"终端号", "終端號", "Terminal"},
		"carPassword.col.passwordSet": {"密码", "密碼", "Password"},
		"carPassword.col.setBy":       {"设置人", "設定人", "Set by"},
		"carPassword.col.setAt":       {"设置时间", "設定時間", "Set at"},
		"carPassword.col.sync":        {"同步状态", "同步狀態", "Sync state"},
		"carPassword.col.syncedAt":    {"同步时间", "同步時間", "Synchronised at"},

		"passwordView.export":        {"密码查看记录", "密碼查看記錄", "Password viewing records"},
		"passwordView.col.viewedAt":  {"查看时间", "查看時間", "Viewed at"},
		"passwordView.col.carNumber": {"车牌号", "車牌號", "Plate"},
		"passwordView.col.group":     {"所属组织", "所屬組織", "Group"},
		"passwordView.col.userName":  {"查看人", "查看人", "Viewed by"},
		"passwordView.col.clientIp":  {"IP 地址", "IP 位址", "IP address"},
		"passwordView.col.reason":    {"查看原因", "查看原因", "Reason"},

		"module.carPassword":           {"车辆密码", "車輛密碼", "Vehicle passwords"},
		"action.carPasswordSet":        {"设置车辆密码", "設定車輛密碼", "Set vehicle password"},
		"action.carPasswordResend":     {"重新下发车辆密码", "重新下發車輛密碼", "Resend vehicle password"},
		"action.carPasswordAutoResend": {"终端上线后自动下发车辆密码", "終端上線後自動下發車輛密碼", "Vehicle password sent when the terminal came online"},
	})
}

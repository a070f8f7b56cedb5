package i18n

// Texts of the firmware upgrade packages and their pushes (internal/firmware, upgradePack, D64).
func init() {
	merge(map[string][3]string{
		"upgradePack.manufacturerFormat": {"厂商编号为 1 到 5 位字母或数字", "廠商編號為 1 到 5 位字母或數字", "The manufacturer ID is 1 to 5 letters or digits"},
		"upgradePack.versionChars":       {"版本号含有终端无法显示的字符", "版本號含有終端無法顯示的字元", "The version contains characters a terminal cannot take"},
		"upgradePack.notForm":            {"上传的内容不是有效的表单", "上傳的內容不是有效的表單", "The upload is not a valid form"},
		"upgradePack.oneFile":            {"一次只能上传一个文件", "一次只能上傳一個檔案", "Upload one file at a time"},
		"upgradePack.tooLarge":           {"升级包不能超过 %d MB", "升級包不能超過 %d MB", "A package cannot exceed %d MB"},
		"upgradePack.noFile":             {"请选择升级包文件（不能为空文件）", "請選擇升級包檔案（不能為空檔案）", "Choose the package file (it cannot be empty)"},
		"upgradePack.duplicate":          {"该类型下厂商 %s 的版本 %s 已存在", "該類型下廠商 %s 的版本 %s 已存在", "Version %[2]s of manufacturer %[1]s already exists for this type"},
		"upgradePack.storeAgain":         {"升级包未能完整保存，请重新上传", "升級包未能完整儲存，請重新上傳", "The package was not stored whole; upload it again"},
		"upgradePack.deleteBusy":         {"该升级包还有 %d 个终端正在升级，完成后才能删除", "該升級包還有 %d 個終端正在升級，完成後才能刪除", "%d terminals are still being upgraded with this package; delete it when they are done"},
		"upgradePack.validHours":         {"有效期为 1 到 %d 小时", "有效期為 1 到 %d 小時", "The validity is 1 to %d hours"},
		"upgradePack.tooManyCars":        {"一次最多推送 %d 辆车", "一次最多推送 %d 輛車", "Push to at most %d vehicles at a time"},
		"upgradePack.noTerminal":         {"车辆 %s 未绑定终端", "車輛 %s 未綁定終端", "Vehicle %s has no terminal"},
		"upgradePack.alreadyQueued":      {"所选终端都已在升级该包", "所選終端都已在升級該包", "Every chosen terminal is already receiving this package"},
		"upgradePack.retryState":         {"只有失败的升级可以重试", "只有失敗的升級可以重試", "Only a failed upgrade can be retried"},
		"upgradePack.retryGone":          {"升级包已删除，无法重试", "升級包已刪除，無法重試", "The package was deleted; it cannot be retried"},

		"upgradePack.kind.0":  {"终端", "終端", "Terminal"},
		"upgradePack.kind.12": {"道路运输证 IC 卡读卡器", "道路運輸證 IC 卡讀卡器", "IC card reader"},
		"upgradePack.kind.52": {"北斗卫星定位模块", "北斗衛星定位模組", "BeiDou module"},

		"export.upgradePush":  {"升级推送记录", "升級推送記錄", "Firmware pushes"},
		"module.upgradePack":  {"升级包", "升級包", "Upgrade packages"},
		"action.upgradePush":  {"推送升级", "推送升級", "Push upgrade"},
		"action.upgradeRetry": {"重试升级", "重試升級", "Retry upgrade"},

		"field.upgradePack.kind":         {"升级类型", "升級類型", "Type"},
		"field.upgradePack.manufacturer": {"厂商编号", "廠商編號", "Manufacturer ID"},
		"field.upgradePack.version":      {"版本号", "版本號", "Version"},
		"field.upgradePack.package":      {"升级包", "升級包", "Package"},
		"field.upgradePack.cars":         {"车辆", "車輛", "Vehicles"},
		"field.upgradePack.time":         {"时间", "時間", "Time"},
		"field.upgradePack.pushedAt":     {"推送时间", "推送時間", "Pushed at"},
		"field.upgradePack.pushedBy":     {"推送人", "推送人", "Pushed by"},
		"field.upgradePack.group":        {"所属单位", "所屬單位", "Organization"},
		"field.upgradePack.terminals":    {"终端数", "終端數", "Terminals"},
		"field.upgradePack.done":         {"成功", "成功", "Succeeded"},
		"field.upgradePack.failed":       {"失败", "失敗", "Failed"},
		"field.upgradePack.expiresAt":    {"有效期至", "有效期至", "Valid until"},
	})
}

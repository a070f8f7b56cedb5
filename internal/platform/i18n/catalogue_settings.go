package i18n

// Texts of the settings part (internal/settings: code lists, platform settings, sessions, offline
// tiles; users' preferences) — issue 18, D66–D67.
func init() {
	merge(map[string][3]string{
		"module.baseType":         {"基础类型", "基礎類型", "Base types"},
		"module.platformSettings": {"系统配置", "系統配置", "System settings"},
		"module.userSession":      {"在线会话", "線上工作階段", "Signed-in sessions"},
		"action.sessionSignout":   {"强制下线", "強制登出", "Sign out"},
		"action.tilesUpload":      {"上传离线地图", "上傳離線地圖", "Upload offline map"},

		"field.codes.type":    {"类型", "類型", "List"},
		"field.codes.code":    {"编码", "編碼", "Code"},
		"field.codes.labelZh": {"简体名称", "簡體名稱", "Simplified Chinese label"},
		"field.codes.labelTw": {"繁体名称", "繁體名稱", "Traditional Chinese label"},
		"field.codes.labelEn": {"英文名称", "英文名稱", "English label"},
		"field.codes.sort":    {"排序", "排序", "Order"},

		"baseType.duplicate": {"编码 %s 已存在", "編碼 %s 已存在", "Code %s already exists"},
		"baseType.builtin": {"“%s”是系统内置项，不能删除，可以停用", "「%s」是系統內建項，不能刪除，可以停用",
			"“%s” is built in: it cannot be deleted, but it can be disabled"},
		"baseType.pinned": {"“%s”是系统功能所依赖的内置项，不能删除或停用，可以修改名称和排序", "「%s」是系統功能所依賴的內建項，不能刪除或停用，可以修改名稱和排序",
			"“%s” is built in and the platform relies on it: it cannot be deleted or disabled, only renamed or reordered"},
		"baseType.inUse": {"“%s”正被 %d 条记录使用，不能删除，可以停用", "「%s」正被 %d 筆記錄使用，不能刪除，可以停用",
			"“%s” is used by %d records: it cannot be deleted, but it can be disabled"},
		"baseType.detail.add":    {"%v：新增 %v（%v）", "%v：新增 %v（%v）", "%v: added %v (%v)"},
		"baseType.detail.delete": {"%v：删除 %v（%v）", "%v：刪除 %v（%v）", "%v: deleted %v (%v)"},
		"baseType.detail.edit": {"%v/%v：名称 %v → %v，排序 %v → %v，启用 %v → %v", "%v/%v：名稱 %v → %v，排序 %v → %v，啟用 %v → %v",
			"%v/%v: label %v → %v, order %v → %v, enabled %v → %v"},

		"field.system.timeZone":              {"时区", "時區", "Time zone"},
		"field.system.rawRetentionDays":      {"原始报文保留天数", "原始報文保留天數", "Days raw frames are kept"},
		"field.system.positionRetentionDays": {"轨迹保留天数", "軌跡保留天數", "Days positions are kept"},
		"field.system.mapProvider":           {"地图来源", "地圖來源", "Map provider"},
		"field.system.amapKey":               {"高德 Key", "高德 Key", "AMap key"},
		"field.system.offlineTiles":          {"离线地图文件", "離線地圖檔案", "Offline map file"},
		"field.system.faultSilentHours":      {"车辆无上报自动报修（小时）", "車輛無上報自動報修（小時）", "Raise a fault for a silent vehicle (hours)"},
		"field.system.faultSensor":           {"传感器故障事件自动报修", "感測器故障事件自動報修", "Raise a fault on a sensor-fault event"},
		"system.positionsMin": {"轨迹至少保留 %d 天（0 表示永久保留）", "軌跡至少保留 %d 天（0 表示永久保留）",
			"Positions must be kept at least %d days (0 keeps them for ever)"},
		"system.offlineNeedsFile": {"选择离线地图前请先上传并选择 MBTiles 文件", "選擇離線地圖前請先上傳並選擇 MBTiles 檔案",
			"Upload and choose an MBTiles file before selecting the offline map"},
		"system.tilesMissing":  {"离线地图文件 %s 不存在或无法读取", "離線地圖檔案 %s 不存在或無法讀取", "The offline map file %s is missing or unreadable"},
		"system.tilesUpload":   {"请选择要上传的 MBTiles 文件", "請選擇要上傳的 MBTiles 檔案", "Choose an MBTiles file to upload"},
		"system.tilesName":     {"文件名只能包含字母、数字、点、横线和下划线，并以 .mbtiles 结尾", "檔名只能包含字母、數字、點、橫線和底線，並以 .mbtiles 結尾", "The file name may hold letters, digits, dots, dashes and underscores and must end in .mbtiles"},
		"system.tilesTooLarge": {"文件不能超过 %d MB", "檔案不能超過 %d MB", "The file must not exceed %d MB"},
		"system.tilesInvalid":  {"这不是有效的 MBTiles 文件（缺少 tiles 表）", "這不是有效的 MBTiles 檔案（缺少 tiles 表）", "This is not an MBTiles file (no tiles table)"},
		"system.tilesInUse":    {"%s 正在使用中，请换一个文件名上传", "%s 正在使用中，請換一個檔名上傳", "%s is in use: upload under another name"},
		"system.detail.change": {"%v → %v", "%v → %v", "%v → %v"},
		"system.detail.upload": {"%v 个瓦片，缩放级别 %v–%v", "%v 個圖磚，縮放級別 %v–%v", "%v tiles, zoom %v–%v"},
		"tiles.none":           {"未配置离线地图", "未設定離線地圖", "No offline map is configured"},

		"field.prefs.theme":    {"界面主题", "介面主題", "Theme"},
		"field.prefs.mapLayer": {"默认地图图层", "預設地圖圖層", "Default map layer"},
	})
}

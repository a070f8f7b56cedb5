package i18n

// Texts of a lock-state string in words (internal/tank LockText), the same as the sensor record page's
// (web sensorRecord.status, sensorRecord.summary, history.compartmentNo).
func init() {
	merge(map[string][3]string{
		"tank.lockText.compartment": {"%d 号仓 %s（打开 %d · 关闭 %d · 上锁 %d · 故障 %d）", "%d 號倉 %s（打開 %d · 關閉 %d · 上鎖 %d · 故障 %d）",
			"Comp. %d %s (%d open · %d closed · %d locked · %d fault)"},
		"tank.lockText.fault":     {"故障", "故障", "fault"},
		"tank.lockText.open":      {"打开", "打開", "open"},
		"tank.lockText.locked":    {"已上锁", "已上鎖", "locked"},
		"tank.lockText.closed":    {"关闭", "關閉", "closed"},
		"tank.lockText.none":      {"无已安装设备", "無已安裝設備", "No devices fitted"},
		"tank.lockText.separator": {"；", "；", "; "},
	})
}

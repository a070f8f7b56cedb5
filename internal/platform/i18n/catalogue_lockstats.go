package i18n

// Texts of the lock and seal statistics (internal/lock/lockstats, D54).
func init() {
	merge(map[string][3]string{
		"lockStats.endBeforeStart": {"结束日期必须不早于开始日期", "結束日期必須不早於開始日期", "The end date must not be before the start date"},
		"lockStats.rangeTooLong":   {"统计区间最长 %d 天", "統計區間最長 %d 天", "A period of at most %d days"},
		"lockStats.exportTooLarge": {"导出行数超过 %d 行，请缩小范围", "導出行數超過 %d 行，請縮小範圍", "More than %d rows to export: narrow the filters"},
		"lockStats.total":          {"合计", "合計", "Total"},

		"export.lockStats.blueLockStat":        {"电子锁日统计", "電子鎖日統計", "Lock statistics by day"},
		"export.lockStats.blueLockStat2":       {"电子锁单锁统计", "電子鎖單鎖統計", "Lock statistics per lock"},
		"export.lockStats.blueLockWeekStat":    {"电子锁周统计", "電子鎖週統計", "Lock statistics by week"},
		"export.lockStats.blueLockMonthStat":   {"电子锁月统计", "電子鎖月統計", "Lock statistics by month"},
		"export.lockStats.sealRecordStat":      {"铅封日统计", "鉛封日統計", "Seal statistics by day"},
		"export.lockStats.sealRecordWeekStat":  {"铅封周统计", "鉛封週統計", "Seal statistics by week"},
		"export.lockStats.sealRecordMonthStat": {"铅封月统计", "鉛封月統計", "Seal statistics by month"},

		"field.lockStats.period":        {"统计周期", "統計週期", "Period"},
		"field.lockStats.by":            {"统计维度", "統計維度", "Grouping"},
		"field.lockStats.column":        {"统计项", "統計項", "Figure"},
		"field.lockStats.by.car":        {"车牌号", "車牌號", "Plate"},
		"field.lockStats.by.group":      {"承运单位", "承運單位", "Carrier"},
		"field.lockStats.by.lock":       {"锁序列号", "鎖序列號", "Lock serial"},
		"field.lockStats.detail.car":    {"所属单位", "所屬單位", "Company"},
		"field.lockStats.detail.group":  {"备注", "備註", "Note"},
		"field.lockStats.detail.lock":   {"当前车辆", "當前車輛", "Car now"},
		"field.lockStats.opened":        {"开锁次数", "開鎖次數", "Openings"},
		"field.lockStats.openedRemote":  {"远程开锁", "遠程開鎖", "Remote"},
		"field.lockStats.openedBle":     {"蓝牙开锁", "藍牙開鎖", "Bluetooth"},
		"field.lockStats.openedKey":     {"本地钥匙开锁", "本地鑰匙開鎖", "Local key"},
		"field.lockStats.openedOther":   {"方式未知开锁", "方式未知開鎖", "Method not given"},
		"field.lockStats.openedInside":  {"围栏内开锁", "圍欄內開鎖", "Inside a fence"},
		"field.lockStats.openedOutside": {"围栏外开锁", "圍欄外開鎖", "Outside fences"},
		"field.lockStats.closed":        {"关锁次数", "關鎖次數", "Closings"},
		"field.lockStats.tampered":      {"破坏报警", "破壞報警", "Tampering"},
		"field.lockStats.lowBattery":    {"低电量", "低電量", "Low battery"},
		"field.lockStats.offlineEvents": {"离线次数", "離線次數", "Went offline"},
		"field.lockStats.offlineS":      {"离线时长 (秒)", "離線時長 (秒)", "Offline (s)"},
		"field.lockStats.applied":       {"施封数", "施封數", "Seals applied"},
		"field.lockStats.brokenDest":    {"到站拆封", "到站拆封", "Broken at destination"},
		"field.lockStats.brokenAway":    {"异地拆封", "異地拆封", "Broken away"},
		"field.lockStats.reused":        {"封号重复", "封號重複", "Number reused"},
		"field.lockStats.noSeals":       {"无铅封运输", "無鉛封運輸", "Trips without seals"},
		"field.lockStats.mismatch":      {"封号不符", "封號不符", "Number mismatch"},
	})
}

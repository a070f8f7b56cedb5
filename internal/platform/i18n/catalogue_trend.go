package i18n

// Texts of the level trends (internal/tank/trend).
func init() {
	merge(map[string][3]string{
		"trend.endBeforeStart": {"结束时间必须晚于开始时间", "結束時間必須晚於開始時間", "The end time must be later than the start time"},
		"trend.rangeTooLong":   {"趋势查询的时间跨度不能超过 %d 天", "趨勢查詢的時間跨度不能超過 %d 天", "The trend period cannot be longer than %d days"},

		"field.trend.start":     {"开始时间", "開始時間", "Start time"},
		"field.trend.end":       {"结束时间", "結束時間", "End time"},
		"field.trend.t":         {"时间点", "時間點", "Time"},
		"field.trend.carId":     {"车辆", "車輛", "Vehicle"},
		"field.trend.tankId":    {"油罐", "油罐", "Tank"},
		"field.trend.maxPoints": {"最大点数", "最大點數", "Maximum points"},
	})
}

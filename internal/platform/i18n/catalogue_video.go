package i18n

// Texts of live video (internal/video, issue 17).
func init() {
	merge(map[string][3]string{
		"video.disabled":     {"本节点未启用视频服务", "本節點未啟用視訊服務", "Video is not enabled on this server"},
		"video.offline":      {"车辆 %s 的终端不在线，无法打开视频", "車輛 %s 的終端不在線，無法開啟視訊", "The terminal of %s is offline; video cannot be opened"},
		"video.timeout":      {"车辆 %s 的终端未应答视频请求", "車輛 %s 的終端未應答視訊請求", "The terminal of %s did not answer the video request"},
		"video.rejected":     {"车辆 %s 的终端拒绝了视频请求：%s", "車輛 %s 的終端拒絕了視訊請求：%s", "The terminal of %s refused the video request: %s"},
		"video.tooMany":      {"视频路数已达上限，请关闭其他视频后再试", "視訊路數已達上限，請關閉其他視訊後再試", "Too many video streams; close another one and try again"},
		"video.noStream":     {"视频已结束或链接无效，请重新打开", "視訊已結束或連結無效，請重新開啟", "The video has ended or the link is not valid; open it again"},
		"video.channel":      {"车辆 %s 没有启用的通道 %d", "車輛 %s 沒有啟用的通道 %d", "Vehicle %s has no enabled channel %d"},
		"video.noChannels":   {"车辆 %s 未配置视频通道", "車輛 %s 未配置視訊通道", "Vehicle %s has no video channels"},
		"video.timeOrder":    {"结束时间必须晚于开始时间", "結束時間必須晚於開始時間", "The end time must be after the start time"},
		"video.rangeTooLong": {"录像查询或回放的时间范围不能超过 %d 小时", "錄影查詢或回放的時間範圍不能超過 %d 小時", "A recording query or playback cannot span more than %d hours"},
		"video.speed":        {"回放倍速只能是 1、2、4、8 或 16", "回放倍速只能是 1、2、4、8 或 16", "The playback speed must be 1, 2, 4, 8 or 16"},
		"video.seekRange":    {"跳转时间应在 %s 到 %s 之间", "跳轉時間應在 %s 到 %s 之間", "The seek time must be between %s and %s"},
		"field.command":      {"回放操作", "回放操作", "Playback command"},
		"field.token":        {"回放会话", "回放工作階段", "Playback session"},
	})
}

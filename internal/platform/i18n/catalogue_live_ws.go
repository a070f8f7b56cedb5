package i18n

// Texts of the live WebSocket (internal/telemetry live_ws.go).
func init() {
	merge(map[string][3]string{
		"live.ws.text": {"只接受 JSON 文本消息", "只接受 JSON 文字訊息", "Only JSON text messages are accepted"},
		"live.ws.type": {"不支持的消息类型：%s", "不支援的訊息類型：%s", "Unsupported message type: %s"},
	})
}

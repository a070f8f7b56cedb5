package i18n

// Texts of system messages (internal/messaging messages*.go).
func init() {
	merge(map[string][3]string{
		"field.message.content":    {"内容", "內容", "Content"},
		"field.message.recipients": {"接收人", "接收人", "Recipients"},
		"message.noRecipients":     {"所选用户和组织中没有可接收消息的用户", "所選用戶和組織中沒有可接收訊息的用戶", "None of the chosen users and groups has a user who can receive the message"},
	})
}

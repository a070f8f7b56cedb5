package i18n

// Texts of system messages (internal/messaging messages*.go).
func init() {
	merge(map[string][3]string{
		"field.message.content":    {"内容", "內容", "Content"},
		"field.message.recipients": {"接收人", "接收人", "Recipients"},
		"message.listSeparator":    {"、", "、", ", "},
		"message.groupTarget":      {"%s（组织）", "%s（組織）", "%s (group)"},
		"export.messages":          {"系统消息", "系統訊息", "System messages"},
		"col.message.sender":       {"发送人", "發送人", "Sender"},
		"col.message.targets":      {"接收对象", "接收對象", "Sent to"},
		"col.message.recipients":   {"接收人数", "接收人數", "Recipients"},
		"col.message.read":         {"已读人数", "已讀人數", "Read"},
		"message.noRecipients":     {"所选用户和组织中没有可接收消息的用户", "所選用戶和組織中沒有可接收訊息的用戶", "None of the chosen users and groups has a user who can receive the message"},
	})
}

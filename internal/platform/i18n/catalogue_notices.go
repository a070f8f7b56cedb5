package i18n

// Texts of the text templates (internal/notice, access/editTemp, D68).
func init() {
	merge(map[string][3]string{
		"notice.unbalanced":         {"第 %d 个字符处的花括号不成对（字面的花括号请写成 {{ 或 }}）", "第 %d 個字元處的大括號不成對（字面的大括號請寫成 {{ 或 }}）", "Unbalanced brace at character %d (write {{ or }} for a literal brace)"},
		"notice.emptyPlaceholder":   {"第 %d 个字符处的占位符为空", "第 %d 個字元處的佔位符為空", "Empty placeholder at character %d"},
		"notice.unknownPlaceholder": {"未知的占位符 %s，此类模板可用：%s", "未知的佔位符 %s，此類範本可用：%s", "Unknown placeholder %s; this kind offers %s"},
		"notice.routeCore":          {"调度短信模板必须原样包含一次 %s（终端据此读取运单和路线）", "調度簡訊範本必須原樣包含一次 %s（終端據此讀取運單和路線）", "A dispatch template must contain %s once, as written (the terminal reads the waybill and route from it)"},
		"notice.routeLine":          {"路线之后的文字必须另起一行", "路線之後的文字必須另起一行", "Text after the route must start on a new line"},
		"notice.tooLong":            {"按最长取值展开后为 %d 个字，超过 %d 字的限制", "按最長取值展開後為 %d 個字，超過 %d 字的限制", "With the longest values the text has %d characters, over the limit of %d"},
		"notice.tooLongAround":      {"路线之外的文字按最长取值展开后为 %d 个字，最多 %d 个字（其余留给路线）", "路線之外的文字按最長取值展開後為 %d 個字，最多 %d 個字（其餘留給路線）", "With the longest values the text around the route has %d characters; at most %d are allowed (the rest is the route's)"},
		"notice.exists":             {"该机构已有此类型、此语言的模板，请直接编辑", "該機構已有此類型、此語言的範本，請直接編輯", "This group already has a template of this kind and language; edit it instead"},
		"notice.platformGroup":      {"平台机构的模板即全平台通用模板，请直接编辑", "平台機構的範本即全平台通用範本，請直接編輯", "The platform group's templates are the platform-wide ones; edit those instead"},
		"notice.builtinDelete":      {"内置模板不能删除，只能恢复默认", "內建範本不能刪除，只能恢復預設", "A built-in template cannot be deleted, only reset"},
		"notice.notBuiltin":         {"只有内置模板可以恢复默认", "只有內建範本可以恢復預設", "Only a built-in template can be reset"},
		"notice.langNotOffered":     {"%s 类模板不提供该语言", "%s 類範本不提供該語言", "%s templates are not offered in this language"},

		"notice.platformWide": {"全平台", "全平台", "Platform-wide"},

		"field.notice.kind":  {"模板类型", "範本類型", "Template kind"},
		"field.notice.lang":  {"语言", "語言", "Language"},
		"field.notice.body":  {"模板内容", "範本內容", "Template text"},
		"field.notice.group": {"适用机构", "適用機構", "Group"},

		"notice.kind.dispatch":  {"运单调度短信", "運單調度簡訊", "Waybill dispatch text"},
		"notice.kind.alarmPush": {"报警推送消息", "報警推播訊息", "Alarm push message"},
		"notice.kind.helpPush":  {"求助推送消息", "求助推播訊息", "Help request push message"},

		"module.notice":      {"模板设置", "範本設定", "Templates"},
		"action.noticeReset": {"恢复默认", "恢復預設", "Reset to default"},
		"oplog.notice":       {"%v（%v）：%v", "%v（%v）：%v", "%v (%v): %v"},
	})
}

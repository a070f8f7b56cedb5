package i18n

// Texts of the waybill map (internal/waybill/live, monitoring_waybill).
func init() {
	merge(map[string][3]string{
		"wbmap.noActive":        {"该车辆当前没有进行中的运单", "該車輛目前沒有進行中的運單", "This vehicle has no active waybill"},
		"field.wbmap.state":     {"运单状态", "運單狀態", "Waybill state"},
		"field.wbmap.waybillNo": {"运单号", "運單號", "Waybill number"},
	})
}

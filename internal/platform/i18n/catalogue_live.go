package i18n

// Texts of the live state and the monitoring calls (internal/telemetry live*.go, monitor*.go).
func init() {
	merge(map[string][3]string{
		"field.live.code":  {"状态编码", "狀態編碼", "Status code"},
		"live.tooManyCars": {"一次最多查询 %d 辆车", "一次最多查詢 %d 輛車", "At most %d vehicles per request"},

		"live.code.8": {"全部车辆", "全部車輛", "All vehicles"},
		"live.code.4": {"在途", "在途", "In transit"},
		"live.code.5": {"低速静止", "低速靜止", "Resting at low speed"},
		"live.code.7": {"离线", "離線", "Offline"},
		"live.code.3": {"异常", "異常", "Abnormal"},

		"live.load.empty": {"空载", "空載", "Empty"},
		"live.load.half":  {"半载", "半載", "Half loaded"},
		"live.load.full":  {"满载", "滿載", "Fully loaded"},

		"live.seal.0": {"未施封", "未施封", "No seal"},
		"live.seal.1": {"已施封", "已施封", "Sealed"},
		"live.seal.2": {"铅封破坏", "鉛封破壞", "Seal broken"},
		"live.seal.3": {"已解封", "已解封", "Unsealed"},

		"live.kind.smallManholeCover": {"小人孔盖", "小人孔蓋", "Small manhole cover"},
		"live.kind.manholeCover":      {"人孔盖", "人孔蓋", "Manhole cover"},
		"live.kind.oilDischargeValve": {"卸油阀", "卸油閥", "Oil discharge valve"},
		"live.kind.bottomValve":       {"底阀", "底閥", "Bottom valve"},

		"live.reason.alarm": {"终端报警", "終端報警", "Terminal alarm"},
		"live.reason.seal":  {"铅封破坏", "鉛封破壞", "Seal broken"},
		"live.reason.fault": {"设备故障", "設備故障", "Device fault"},

		// JT/T 808-2013 alarm flag bits (0x0200); 15–17 are reserved.
		"live.alarm.other": {"报警位 %d", "報警位 %d", "Alarm bit %d"},
		"live.alarm.0":     {"紧急报警", "緊急報警", "Emergency (SOS)"},
		"live.alarm.1":     {"超速报警", "超速報警", "Overspeed"},
		"live.alarm.2":     {"疲劳驾驶", "疲勞駕駛", "Fatigue driving"},
		"live.alarm.3":     {"危险预警", "危險預警", "Danger warning"},
		"live.alarm.4":     {"GNSS 模块故障", "GNSS 模組故障", "GNSS module fault"},
		"live.alarm.5":     {"GNSS 天线未接或被剪断", "GNSS 天線未接或被剪斷", "GNSS antenna disconnected"},
		"live.alarm.6":     {"GNSS 天线短路", "GNSS 天線短路", "GNSS antenna short circuit"},
		"live.alarm.7":     {"终端主电源欠压", "終端主電源欠壓", "Main power low"},
		"live.alarm.8":     {"终端主电源掉电", "終端主電源斷電", "Main power off"},
		"live.alarm.9":     {"显示器故障", "顯示器故障", "Display fault"},
		"live.alarm.10":    {"TTS 模块故障", "TTS 模組故障", "TTS module fault"},
		"live.alarm.11":    {"摄像头故障", "攝影機故障", "Camera fault"},
		"live.alarm.12":    {"IC 卡模块故障", "IC 卡模組故障", "IC card module fault"},
		"live.alarm.13":    {"超速预警", "超速預警", "Overspeed warning"},
		"live.alarm.14":    {"疲劳驾驶预警", "疲勞駕駛預警", "Fatigue driving warning"},
		"live.alarm.18":    {"当天累计驾驶超时", "當天累計駕駛超時", "Driving time over today"},
		"live.alarm.19":    {"超时停车", "超時停車", "Overtime parking"},
		"live.alarm.20":    {"进出区域", "進出區域", "Area entry/exit"},
		"live.alarm.21":    {"进出路线", "進出路線", "Route entry/exit"},
		"live.alarm.22":    {"路段行驶时间不足/过长", "路段行駛時間不足/過長", "Route driving time too short/long"},
		"live.alarm.23":    {"路线偏离报警", "路線偏離報警", "Route deviation"},
		"live.alarm.24":    {"车辆 VSS 故障", "車輛 VSS 故障", "VSS fault"},
		"live.alarm.25":    {"车辆油量异常", "車輛油量異常", "Abnormal fuel level"},
		"live.alarm.26":    {"车辆被盗", "車輛被盜", "Vehicle stolen"},
		"live.alarm.27":    {"车辆非法点火", "車輛非法點火", "Illegal ignition"},
		"live.alarm.28":    {"车辆非法位移", "車輛非法位移", "Illegal displacement"},
		"live.alarm.29":    {"碰撞预警", "碰撞預警", "Collision warning"},
		"live.alarm.30":    {"侧翻预警", "側翻預警", "Rollover warning"},
		"live.alarm.31":    {"非法开门报警", "非法開門報警", "Illegal door opening"},
	})
}

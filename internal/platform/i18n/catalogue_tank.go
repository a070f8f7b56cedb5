package i18n

// Texts of the tank extension and the sensor registry (internal/tank).
func init() {
	merge(map[string][3]string{
		"field.tank.sensorName":     {"传感器名称", "感測器名稱", "Sensor name"},
		"field.tank.length":         {"报文长度", "報文長度", "Message length"},
		"field.tank.identification": {"外设识别ID", "外設識別ID", "Peripheral identification ID"},
		"field.tank.decoder":        {"解码方式", "解碼方式", "Decoder"},

		"tank.identificationHex": {"外设识别ID应为 1–8 位十六进制字符（如 A1）", "外設識別ID應為 1–8 位十六進位字元（如 A1）",
			"Peripheral identification ID must be 1–8 hexadecimal characters (e.g. A1)"},
		"tank.identificationExists": {"本组织已有外设识别ID为 %s 的传感器", "本組織已有外設識別ID為 %s 的感測器",
			"This group already has a sensor with peripheral identification ID %s"},
		"tank.identificationTaken": {"外设识别ID %s 与其他组织已登记的传感器冲突（识别ID相同但解码方式或报文长度不同，或一个是另一个的前缀），终端上报的数据将无法正确解码，请核对识别ID",
			"外設識別ID %s 與其他組織已登記的感測器衝突（識別ID相同但解碼方式或報文長度不同，或一個是另一個的前綴），終端上報的資料將無法正確解碼，請核對識別ID",
			"Peripheral identification ID %s clashes with a sensor registered by another group (the same ID with another decoder or message length, or one ID is a prefix of the other), so terminal reports could not be decoded correctly; check the ID"},
		"tank.decoderUnknown": {"解码方式应为以下之一：%s", "解碼方式應為以下之一：%s", "Decoder must be one of: %s"},
		"tank.lengthMismatch": {"报文长度应为 0（不检查）或 %d（识别ID与数据的字节数）", "報文長度應為 0（不檢查）或 %d（識別ID與資料的位元組數）",
			"Message length must be 0 (not checked) or %d (bytes of identification ID and data)"},

		"module.sensor": {"传感器管理", "感測器管理", "Sensors"},
	})
}

package i18n

// Texts of the waybill base data (issue 15): products (internal/waybill/product), customers and their
// cars (internal/waybill/customer), sales companies and their carriers (internal/org, internal/waybill/sales),
// document numbers (baseCode).
func init() {
	merge(map[string][3]string{
		"field.transProduct.name":      {"油品名称", "油品名稱", "Product name"},
		"field.transProduct.code":      {"油品编码", "油品編碼", "Product code"},
		"field.transProduct.grade":     {"标号/牌号", "標號/牌號", "Grade"},
		"field.transProduct.product":   {"油品类型", "油品類型", "Fuel type"},
		"field.transProduct.family":    {"油品类别（V20）", "油品類別（V20）", "Product family (V20)"},
		"field.transProduct.density20": {"标准密度（20 ℃）", "標準密度（20 ℃）", "Density at 20 °C"},
		"field.transProduct.k0":        {"K0 系数", "K0 係數", "K0 coefficient"},
		"field.transProduct.k1":        {"K1 系数", "K1 係數", "K1 coefficient"},
		"transProduct.kPair":           {"K0 与 K1 须同时填写或同时留空", "K0 與 K1 須同時填寫或同時留空", "Enter both K0 and K1, or neither"},
		"transProduct.codeExists":      {"本组织已有编码为 %s 的油品", "本組織已有編碼為 %s 的油品", "This group already has a product with code %s"},
		"transProduct.inUse": {"油品“%s”已被 %d 条运单、计划或装油记录使用，不能删除", "油品「%s」已被 %d 筆運單、計畫或裝油記錄使用，不能刪除",
			"Product \"%s\" is used by %d waybill, plan or loading record lines and cannot be deleted"},

		"field.customer.name":     {"客户名称", "客戶名稱", "Customer name"},
		"field.customer.code":     {"客户编码", "客戶編碼", "Customer code"},
		"field.customer.phone":    {"联系电话", "聯絡電話", "Phone"},
		"field.customer.stations": {"所属加油站", "所屬加油站", "Stations"},
		"customer.stationMissing": {"加油站 %d 不存在", "加油站 %d 不存在", "Station %d does not exist"},
		"customer.notOilStation":  {"“%s”不是加油站，客户只能拥有加油站", "「%s」不是加油站，客戶只能擁有加油站", "\"%s\" is not an oil station; customers own oil stations only"},
		"customer.stationOwned":   {"加油站“%s”已属于客户“%s”", "加油站「%s」已屬於客戶「%s」", "Station \"%s\" already belongs to customer \"%s\""},
		"customer.codeExists":     {"本组织已有编码为 %s 的客户", "本組織已有編碼為 %s 的客戶", "This group already has a customer with code %s"},
		"customer.inUse": {"客户“%s”已有 %d 条运单或运输计划，不能删除", "客戶「%s」已有 %d 筆運單或運輸計畫，不能刪除",
			"Customer \"%s\" has %d waybills or transport plans and cannot be deleted"},

		"field.customerCar.customer": {"所属客户", "所屬客戶", "Customer"},
		"field.customerCar.capacity": {"核定容积（升）", "核定容積（公升）", "Capacity (L)"},
		"field.customerCar.carType":  {"车辆类型", "車輛類型", "Vehicle type"},
		"customerCar.plateExists":    {"该客户已有车牌号为 %s 的车辆", "該客戶已有車牌號為 %s 的車輛", "This customer already has a vehicle with plate %s"},

		"field.salesCompany.salesGroup": {"销售公司", "銷售公司", "Sales company"},
		"field.salesCompany.carriers":   {"承运公司", "承運公司", "Carriers"},
		"field.sales":                   {"销售公司标记", "銷售公司標記", "Sales company flag"},
		"field.maxCount":                {"%s最多 %d 项", "%s最多 %d 項", "%s: at most %d items"},
		"salesCompany.notSales":         {"“%s”不是销售公司，请先将其设为销售公司", "「%s」不是銷售公司，請先將其設為銷售公司", "\"%s\" is not a sales company; flag it as one first"},
		"salesCompany.selfBind":         {"销售公司“%s”不能作为自己的承运公司", "銷售公司「%s」不能作為自己的承運公司", "Sales company \"%s\" cannot be its own carrier"},
		"oplog.salesCompany":            {"销售公司：%v", "銷售公司：%v", "Sales company: %v"},
		"oplog.salesCarriers":           {"承运公司 %v 家", "承運公司 %v 家", "%v carriers"},

		"group.hasStaffData":     {"该组织下还有员工、岗位、请假记录、操作流程、设备或售后记录", "該組織下還有員工、崗位、請假記錄、操作流程、設備或售後記錄", "The group still has employees, duties, leave records, procedures, equipment or fault records"},
		"group.hasWaybillData":   {"该组织下还有油品、客户、运单或运输计划", "該組織下還有油品、客戶、運單或運輸計畫", "The group still has products, customers, waybills or transport plans"},
		"field.baseCode.company": {"公司编码", "公司編碼", "Company code"},
		"baseCode.kind":          {"单据类型应为以下之一：%s", "單據類型應為以下之一：%s", "Document kind must be one of: %s"},
		"baseCode.unknown":       {"没有编码为 %s 的公司", "沒有編碼為 %s 的公司", "There is no company with code %s"},

		"module.transProduct": {"油品管理", "油品管理", "Products"},
		"module.customer":     {"客户管理", "客戶管理", "Customers"},
		"module.customerCar":  {"客户车辆", "客戶車輛", "Customer vehicles"},
		"module.salesCompany": {"销售公司", "銷售公司", "Sales companies"},
	})
}

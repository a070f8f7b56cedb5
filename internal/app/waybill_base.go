package app

import (
	"context"
	"fmt"
	"time"

	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/station"
	"tankwatch/internal/waybill/customer"
	"tankwatch/internal/waybill/product"
	"tankwatch/internal/waybill/sales"
)

// waybillBase: products, customers, customer cars, sales companies and their carriers, code sequences (issue 15).
type waybillBase struct {
	Products  *product.Service
	Customers *customer.Service
	Sales     *sales.Service
}

func (a *App) buildWaybillBase() {
	now := func() time.Time { return a.now() } // follows SetNow
	a.waybillBase.Products = product.New(a.DB, a.Audit)
	a.waybillBase.Customers = customer.New(a.DB, a.Audit)
	a.waybillBase.Sales = sales.New(a.DB, a.Audit)
	a.waybillBase.Products.Now, a.waybillBase.Customers.Now, a.waybillBase.Sales.Now = now, now, now
}

func (a *App) waybillBaseRoutes() []httpx.Route {
	var rs []httpx.Route
	rs = append(rs, a.waybillBase.Products.Routes()...)
	rs = append(rs, a.waybillBase.Customers.Routes()...)
	rs = append(rs, a.waybillBase.Sales.Routes()...)
	return rs
}

// demoCustomerCars are the 华东 demo customer's own cars.
var demoCustomerCars = []customer.CarInput{
	{Plate: "沪D·K8801", CarType: "油罐车", CapacityL: 30000, Compartments: 3, DriverName: "钱师傅", DriverPhone: "13800138001"},
	{Plate: "沪D·K8802", CarType: "油罐车", CapacityL: 24000, Compartments: 2, DriverName: "孙师傅", DriverPhone: "13800138002"},
}

// seedWaybillBase seeds the demo's waybill base data (idempotent): the four products in each
// subsidiary, a customer per region owning that region's oil stations (the 华东 one with two cars of
// its own), and the top group flagged as the sales company with the three subsidiaries as its
// carriers (no new group: the demo organisation keeps its shape).
func (a *App) seedWaybillBase(ctx context.Context) error {
	for i, region := range sim.Regions {
		var gid int64
		if err := a.DB.NewSelect().Table("org_groups").Column("id").Where("name = ?", region+"分公司").Limit(1).Scan(ctx, &gid); err != nil {
			return fmt.Errorf("demo group of %s: %w", region, err)
		}
		if err := a.waybillBase.Products.SeedDemo(ctx, gid); err != nil {
			return err
		}
		var stations []int64
		if err := a.DB.NewSelect().Table("stations").Column("id").Where("group_id = ? AND station_type = ?", gid, station.TypeOilStation).
			Order("id").Scan(ctx, &stations); err != nil {
			return err
		}
		var cars []customer.CarInput
		if region == "华东" {
			cars = demoCustomerCars
		}
		if err := a.waybillBase.Customers.SeedDemo(ctx, gid, fmt.Sprintf("KH%02d", i+1), region+"石化销售有限公司", "王经理",
			fmt.Sprintf("1390000000%d", i+1), stations, cars); err != nil {
			return err
		}
	}
	salesID, err := a.Org.SetSalesDemo(ctx, org.DemoTopGroup)
	if err != nil {
		return err
	}
	var carriers []int64
	if err := a.DB.NewSelect().Table("org_groups").Column("id").Where("parent_id = ?", salesID).Order("id").Scan(ctx, &carriers); err != nil {
		return err
	}
	return a.waybillBase.Sales.SeedDemo(ctx, salesID, carriers)
}

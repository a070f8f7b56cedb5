package app

import (
	"context"

	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/bill"
	"tankwatch/internal/waybill/load"
)

// The real services behind the demo planner's interfaces: the waybill service (Create, Dispatch) and
// the load record service (Record), looked up at call time so the build order does not matter.

type demoBills struct{ a *App }

func (a *App) demoWaybillMaker() WaybillMaker { return demoBills{a} }

func (m demoBills) Create(ctx context.Context, userID int64, in demoBill) (*waybill.Row, error) {
	bi := bill.Input{CarID: in.CarID, DepotID: in.DepotID, StationIDs: in.StationIDs, PlannedLoadAt: in.PlannedLoadAt,
		PlannedArriveAt: in.PlannedArriveAt, DriverName: in.DriverName, DriverPhone: in.DriverPhone, Remark: in.Remark}
	for _, c := range in.Compartments {
		bi.Compartments = append(bi.Compartments, bill.CompInput{No: c.No, ProductID: c.ProductID, PlannedL: c.PlannedL, DestSeq: c.DestSeq})
	}
	return m.a.WaybillBills().Create(ctx, userID, bi)
}

func (m demoBills) Dispatch(ctx context.Context, userID, id int64) error {
	return m.a.WaybillBills().Dispatch(ctx, userID, id)
}

type demoLoads struct{ a *App }

func (a *App) demoLoadRecorder() LoadRecorder { return demoLoads{a} }

func (r demoLoads) Record(ctx context.Context, userID int64, source int, in demoLoad) (int64, error) {
	li := load.RecordInput{WaybillID: in.WaybillID, TicketNo: in.TicketNo, LoadedAt: in.LoadedAt, Remark: in.Remark}
	for _, it := range in.Items {
		li.Items = append(li.Items, load.ItemInput{Compartment: it.Compartment, ProductID: it.ProductID, VtL: it.VtL, TempC: it.TempC,
			Density20: it.Density20, SealNo: it.SealNo})
	}
	return r.a.LoadRecords().Record(ctx, userID, source, li)
}

// wireWaybillTouch tells the process engine of every waybill the bill and load services change (the
// engine reloads that car's waybill at once), unless the lead's wiring did already.
func (a *App) wireWaybillTouch() {
	if s := a.WaybillBills(); s != nil && s.Touch == nil {
		s.Touch = a.TouchWaybillCar
	}
	if s := a.LoadRecords(); s != nil && s.OnChange == nil {
		s.OnChange = a.TouchWaybillCar
	}
}

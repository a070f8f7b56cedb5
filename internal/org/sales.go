package org

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
)

// CodeSalesCompany is the button of groupInfo that creates sales companies, flags groups as sales
// companies and binds their carriers (issue 15).
const CodeSalesCompany = "06-04-06"

// SalesCompanyInput is the body of groupInfo/addSalesCompany: a new group (parentId, name, code…)
// created with sales = true, or, with id, the sales flag of an existing group set to Sales.
type SalesCompanyInput struct {
	GroupInput
	Sales *bool `json:"sales"`
}

// AddSalesCompany creates a sales company (a group flagged sales) under in.ParentID, or sets the sales
// flag of group in.ID; both only inside the caller's scope.
func (s *Service) AddSalesCompany(r *http.Request, in SalesCompanyInput) (*GroupView, error) {
	if in.ID <= 0 {
		in.GroupInput.ID = 0
		v, err := s.AddGroup(r, in.GroupInput, false)
		if err != nil {
			return nil, err
		}
		return s.setSales(r, v.ID, true)
	}
	if in.Sales == nil {
		return nil, httpx.Required("sales")
	}
	return s.setSales(r, in.ID, *in.Sales)
}

func (s *Service) setSales(r *http.Request, id int64, sales bool) (*GroupView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	var g *Group
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if g, err = s.scopedGroup(ctx, tx, p, id); err != nil {
			return err
		}
		g.Sales = sales
		_, err = tx.NewUpdate().Model(g).Column("sales").WherePK().Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ModuleGroup, audit.ActionUpdate, g.Name, g.ID, audit.Text("oplog.salesCompany", sales))
	return g.view(), nil
}

// SetSalesDemo flags the group named name as a sales company (demo seed; idempotent).
func (s *Service) SetSalesDemo(ctx context.Context, name string) (int64, error) {
	var id int64
	if err := s.db.NewSelect().Model((*Group)(nil)).Column("id").Where("name = ?", name).Order("id").Limit(1).Scan(ctx, &id); err != nil {
		return 0, err
	}
	_, err := s.db.NewUpdate().Model((*Group)(nil)).Set("sales = ?", true).Where("id = ?", id).Exec(ctx)
	return id, err
}

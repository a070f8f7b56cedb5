package fleet

import (
	"context"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
)

// CarTree is the caller's group tree with the cars as leaves under their groups. With name, only
// cars whose plate contains it (or that are in a group whose name contains it) are kept, with the
// groups on their way up; groups whose name matches are kept too.
func (s *Service) CarTree(ctx context.Context, p *httpx.Principal, name string) ([]*TreeNode, error) {
	var groups []group
	if err := s.db.NewSelect().Model(&groups).Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("g.path, g.id").Scan(ctx); err != nil {
		return nil, err
	}
	var cars []struct {
		ID      int64  `bun:"id"`
		GroupID int64  `bun:"group_id"`
		Plate   string `bun:"plate"`
	}
	err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.group_id, c.plate").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("c.plate, c.id").Scan(ctx, &cars)
	if err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	nodes := map[int64]*TreeNode{}
	keep := map[int64]bool{}
	for _, g := range groups {
		nodes[g.ID] = &TreeNode{ID: g.ID, Name: g.Name, Type: "group", Children: []*TreeNode{}}
		if name == "" || strings.Contains(g.Name, name) {
			keep[g.ID] = true
		}
	}
	parentOf := func(g group) *TreeNode {
		if g.ParentID == nil || g.ID == p.GroupID {
			return nil
		}
		return nodes[*g.ParentID]
	}
	byID := map[int64]group{}
	for _, g := range groups {
		byID[g.ID] = g
	}
	markUp := func(id int64) {
		for id != 0 && !keep[id] {
			keep[id] = true
			g := byID[id]
			if g.ParentID == nil || g.ID == p.GroupID {
				return
			}
			id = *g.ParentID
		}
	}
	// groups kept because a descendant matched
	for _, g := range groups {
		if keep[g.ID] && g.ParentID != nil && g.ID != p.GroupID {
			markUp(*g.ParentID)
		}
	}
	for _, c := range cars {
		g, ok := nodes[c.GroupID]
		if !ok {
			continue
		}
		if name != "" && !plate.Contains(c.Plate, name) && !strings.Contains(g.Name, name) {
			continue
		}
		g.Children = append(g.Children, &TreeNode{ID: c.ID, Name: c.Plate, Type: "car", Plate: c.Plate, GroupID: c.GroupID, Children: []*TreeNode{}})
		markUp(c.GroupID)
	}
	// cars first under each group, then the sub-groups in path order
	var roots []*TreeNode
	for _, g := range groups {
		if !keep[g.ID] {
			continue
		}
		if parent := parentOf(g); parent != nil {
			parent.Children = append(parent.Children, nodes[g.ID])
		} else {
			roots = append(roots, nodes[g.ID])
		}
	}
	if roots == nil {
		roots = []*TreeNode{}
	}
	return roots, nil
}

// GroupCarsQuery is the body of groupInfo/selectCarsByGroupId.
type GroupCarsQuery struct {
	httpx.PageReq
	GroupID int64 `json:"groupId"`
}

// GroupCars is a page of the cars in a group's subtree (groupId 0: the caller's group).
func (s *Service) GroupCars(ctx context.Context, p *httpx.Principal, q GroupCarsQuery) (httpx.Page[*CarView], error) {
	return s.CarPage(ctx, p, CarQuery{PageReq: q.PageReq, GroupID: q.GroupID})
}

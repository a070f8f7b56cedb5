package station

import (
	"context"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// TreeNode is a node of the station trees: a group, a station type or a station (the leaves).
type TreeNode struct {
	Key         string      `json:"key"`
	ID          int64       `json:"id"`
	Name        string      `json:"name"`
	Kind        string      `json:"kind"` // "group" | "type" | "station"
	StationType string      `json:"stationType,omitempty"`
	Lng         float64     `json:"lng,omitempty"`
	Lat         float64     `json:"lat,omitempty"`
	Count       int         `json:"count"` // stations below (1 for a station)
	Children    []*TreeNode `json:"children"`
}

// TreeQuery is the body of the tree calls.
type TreeQuery struct {
	GroupID     int64  `json:"groupId"`
	StationName string `json:"stationName"`
}

func leaf(r *stationRow) *TreeNode {
	return &TreeNode{Key: "s" + strconv.FormatInt(r.ID, 10), ID: r.ID, Name: r.Name, Kind: "station",
		StationType: r.StationType, Lng: r.CenterLng, Lat: r.CenterLat, Count: 1, Children: []*TreeNode{}}
}

type groupRow struct {
	ID   int64  `bun:"id"`
	Name string `bun:"name"`
	Path string `bun:"path"`
}

// treeInputs are what the group-shaped trees are built from: the stations of the query and the
// caller's groups in path order (parents first).
func (s *Service) treeInputs(ctx context.Context, p *httpx.Principal, q TreeQuery) ([]stationRow, []groupRow, error) {
	rows, err := s.all(ctx, p, Query{GroupID: q.GroupID, StationName: q.StationName})
	if err != nil {
		return nil, nil, err
	}
	var groups []groupRow
	if err := s.db.NewSelect().Table("org_groups").Column("id", "name", "path").Where("path LIKE ?", p.GroupPath+"%").
		OrderExpr("path").Scan(ctx, &groups); err != nil {
		return nil, nil, err
	}
	return rows, groups, nil
}

func (g groupRow) node() *TreeNode {
	return &TreeNode{Key: "g" + strconv.FormatInt(g.ID, 10), ID: g.ID, Name: g.Name, Kind: "group", Children: []*TreeNode{}}
}

// TreeByPlatform: the caller's group tree (groups without stations below them left out), each group's
// own stations as leaves after its sub-groups.
func (s *Service) TreeByPlatform(ctx context.Context, p *httpx.Principal, q TreeQuery) ([]*TreeNode, error) {
	rows, groups, err := s.treeInputs(ctx, p, q)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*TreeNode{}
	var roots []*TreeNode
	for _, g := range groups {
		n := g.node()
		byPath[g.Path] = n
		parent := g.Path[:strings.LastIndexByte(strings.TrimSuffix(g.Path, "/"), '/')+1]
		if pn := byPath[parent]; pn != nil && g.Path != p.GroupPath {
			pn.Children = append(pn.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	for i := range rows {
		if n := byPath[rows[i].GroupPath]; n != nil {
			n.Children = append(n.Children, leaf(&rows[i]))
		}
	}
	return prune(roots), nil
}

// prune drops groups with no station below and counts the stations of the rest.
func prune(ns []*TreeNode) []*TreeNode {
	out := []*TreeNode{}
	for _, n := range ns {
		if n.Kind == "station" {
			out = append(out, n)
			continue
		}
		n.Children = prune(n.Children)
		n.Count = 0
		for _, c := range n.Children {
			n.Count += c.Count
		}
		if n.Count > 0 {
			out = append(out, n)
		}
	}
	return out
}

// TreeByCustomizing: the stations by station type, in the order of Types, names translated.
func (s *Service) TreeByCustomizing(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q TreeQuery) ([]*TreeNode, error) {
	rows, err := s.all(ctx, p, Query{GroupID: q.GroupID, StationName: q.StationName})
	if err != nil {
		return nil, err
	}
	byType := map[string]*TreeNode{}
	var out []*TreeNode
	for _, t := range Types {
		n := &TreeNode{Key: "t" + t, Name: i18n.T(lang, "station.type."+t), Kind: "type", StationType: t, Children: []*TreeNode{}}
		byType[t] = n
		out = append(out, n)
	}
	for i := range rows {
		if n := byType[rows[i].StationType]; n != nil {
			n.Children = append(n.Children, leaf(&rows[i]))
		}
	}
	return prune(out), nil
}

// TreeBySales: the stations under the caller's direct sub-groups (the subsidiaries that sell and
// deliver in their regions), with the caller's own group's stations under a node of its own. The
// organisation has no separate sales companies, so this is the honest reading of "by sales".
func (s *Service) TreeBySales(ctx context.Context, p *httpx.Principal, q TreeQuery) ([]*TreeNode, error) {
	rows, groups, err := s.treeInputs(ctx, p, q)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*TreeNode{}
	var out []*TreeNode
	for _, g := range groups {
		if g.Path != p.GroupPath && strings.Count(strings.TrimPrefix(g.Path, p.GroupPath), "/") != 1 {
			continue
		}
		n := g.node()
		byPath[g.Path] = n
		out = append(out, n)
	}
	for i := range rows {
		key := p.GroupPath
		if rest := strings.TrimPrefix(rows[i].GroupPath, p.GroupPath); rest != "" {
			key += rest[:strings.IndexByte(rest, '/')+1]
		}
		if n := byPath[key]; n != nil {
			n.Children = append(n.Children, leaf(&rows[i]))
		}
	}
	return prune(out), nil
}

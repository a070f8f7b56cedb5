package station

import "context"

func (s *Service) typeChecker(ctx context.Context) func(string) bool {
	if s.TypeKnown == nil {
		return knownType
	}
	return func(t string) bool { return s.TypeKnown(ctx, t) }
}

// CountByType counts the stations (of every company) of a type: the code list refuses to delete a type
// still in use.
func (s *Service) CountByType(ctx context.Context, stationType string) (int, error) {
	n, err := s.db.NewSelect().TableExpr("stations").Where("station_type = ?", stationType).Count(ctx)
	return int(n), err
}

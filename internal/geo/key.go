package geo

// SetAMapKey changes the Gaode web-service key at run time (system settings, D67); "" answers
// offline only. Lookups cached under the old key stay until they age out.
func (s *Service) SetAMapKey(key string) { s.key.Store(&key) }

func (s *Service) amapKey() string {
	if k := s.key.Load(); k != nil {
		return *k
	}
	return s.cfg.AMapKey
}

package alarm

// SetDefaultParking changes the overtime parking minutes of cars with no control mode (system
// settings, D67); the engine judges the next report with it. minutes ≤ 0 goes back to
// DefaultParkingMinutes.
func (s *Service) SetDefaultParking(minutes int) {
	s.defaultParking.Store(int64(max(minutes, 0)))
	def := s.defaults()
	s.mu.Lock()
	if s.controls != nil {
		s.controls.def = def
	}
	s.mu.Unlock()
}

// DefaultParking is the overtime parking minutes in force for cars with no control mode.
func (s *Service) DefaultParking() int {
	if v := s.defaultParking.Load(); v > 0 {
		return int(v)
	}
	return DefaultParkingMinutes
}

package telemetry

import "time"

// SetOfflineAfter changes the platform's offline threshold at run time (system settings, D67): every
// car's deadline is judged again at once, so the home counts, the map and the offline records follow
// without a restart. A car's own offline_minutes still wins; d ≤ 0 goes back to the configured value.
func (l *Live) SetOfflineAfter(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.offlineOverride.Store(max(d.Milliseconds(), 0))
	for i, id := range l.ids {
		if e := l.entries[id]; e != nil {
			l.hot[i] = l.hotOf(e)
		}
	}
}

// OfflineAfter is the platform's offline threshold in force.
func (l *Live) OfflineAfter() time.Duration {
	if v := l.offlineOverride.Load(); v > 0 {
		return time.Duration(v) * time.Millisecond
	}
	return l.cfg.OfflineAfter
}

// LastReport is a registry car's newest report by its received time (Unix ms).
type LastReport struct {
	CarID int64
	At    int64
}

// LastReports lists the registry cars that have reported, with the received time of their newest
// report (the start of their silence when they are offline).
func (l *Live) LastReports() []LastReport {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]LastReport, 0, len(l.ids))
	for _, id := range l.ids {
		if e := l.entries[id]; e != nil && e.known && e.hasPos {
			out = append(out, LastReport{CarID: id, At: e.pos.received})
		}
	}
	return out
}

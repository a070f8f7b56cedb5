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

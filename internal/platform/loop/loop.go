// Package loop runs the periodic work of long-lived services.
package loop

import (
	"context"
	"time"
)

// Every calls fn every d until ctx ends (the first call after d).
func Every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

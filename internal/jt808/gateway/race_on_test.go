//go:build race

package gateway

// raceEnabled: the race detector's instrumentation enlarges every stack frame.
const raceEnabled = true

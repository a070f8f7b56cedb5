//go:build race

package dbtest

const raceEnabled = true

//go:build !race

package dbtest

const raceEnabled = false

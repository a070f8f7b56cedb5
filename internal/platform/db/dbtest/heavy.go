package dbtest

import "testing"

// DataHeavy marks a test whose cost is the volume of data it puts through the store (months of seeded
// trips: thousands of rows through SQLite's translated C, which -race slows twenty-fold) and whose code
// under test runs on one goroutine. The -race pass of `make test-go` skips it; the Makefile's NORACE_TESTS
// pass runs it without -race (TestDataHeavyTestsAreRun keeps that list whole). DECISIONS D76.
func DataHeavy(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("data-heavy: run without -race by make test-go (NORACE_TESTS)")
	}
}

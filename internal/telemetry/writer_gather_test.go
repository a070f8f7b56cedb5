package telemetry

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// TestWriterGathersBetweenCommits: what arrives while a commit runs waits for company (MaxDelay, or a
// full batch) before the next commit, as work arriving to an idle writer does, instead of going out at
// once in a transaction of its own (D126). MaxDelay is an hour here, so a second commit can only come
// from a full batch: on the code before D126 it held the one report that came during the first commit.
func TestWriterGathersBetweenCommits(t *testing.T) {
	w := NewWriter(dbtest.Open(t, db.SQLite), WriterConfig{MaxBatch: 2, MaxDelay: time.Hour}, quietLog())
	began, release := make(chan int, 4), make(chan struct{})
	w.commit = func(ctx context.Context, rs []Report, _ []Frame) error {
		began <- len(rs)
		select {
		case <-release:
		case <-ctx.Done(): // the test ended early
		}
		return nil
	}
	startWriter(t, w)
	submit := func(sec int) {
		t.Helper()
		if err := w.Submit(context.Background(), []Report{sampleReport(1, 1, sec)}, nil, func(error) {}); err != nil {
			t.Fatal(err)
		}
	}
	submit(1)
	submit(2) // a full batch: the first commit starts
	if n := <-began; n != 2 {
		t.Fatalf("first commit: %d reports, want 2", n)
	}
	submit(3) // arrives during the first commit
	release <- struct{}{}
	select {
	case n := <-began:
		t.Fatalf("a commit of %d report(s) right after the first: the report that came during it did not wait for company", n)
	case <-time.After(200 * time.Millisecond): // nothing may come before the batch is full (an hour)
	}
	submit(4)
	if n := <-began; n != 2 {
		t.Errorf("second commit: %d reports, want 2", n)
	}
	release <- struct{}{}
}

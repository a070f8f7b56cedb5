package telemetry

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

var t0 = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

func sampleReport(car, term int64, sec int) Report {
	return Report{TerminalID: term, CarID: car, Phone: "013852600100", Received: t0.Add(time.Duration(sec)*time.Second + 300*time.Millisecond),
		Time: t0.Add(time.Duration(sec) * time.Second), Alarm: 2, Status: 3, Lat: 39_912_345, Lon: 116_401_234,
		Altitude: 50, Speed: 623, Direction: 90, Mileage: 123456, HasMileage: true, Signal: 20, Satellites: 12}
}

// startWriter runs w until the test ends and returns a function that stops it and waits.
func startWriter(t *testing.T, w *Writer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- w.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-ended; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// submitWait submits and waits for done.
func submitWait(t *testing.T, w *Writer, reports []Report, frames []Frame) {
	t.Helper()
	got := make(chan error, 1)
	if err := w.Submit(context.Background(), reports, frames, func(err error) { got <- err }); err != nil {
		t.Fatalf("submit: %v", err)
	}
	if err := <-got; err != nil {
		t.Fatalf("done: %v", err)
	}
}

func count(t *testing.T, d *db.DB, table string) int {
	t.Helper()
	n, err := d.NewSelect().TableExpr(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestWriterRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w := NewWriter(d, WriterConfig{}, quietLog())
		batches := make(chan []Report, 4)
		w.Subscribe(func(rs []Report) { batches <- rs })
		startWriter(t, w)

		plain := sampleReport(7, 3, 0)
		noTime := sampleReport(7, 3, 10)
		noTime.Time, noTime.HasMileage, noTime.Blind = time.Time{}, false, true
		withTank := sampleReport(7, 3, 20)
		st := &tank.State{Compartments: 2, Seal: tank.SealSealed}
		st.Devices[0][tank.BottomValve] = tank.DevInstalled | tank.DevLocked
		withTank.Tank = st
		withTank.Levels = &tank.Levels{N: 2, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 1200, VolumeL: 9800, TempDeci: -15}, {Compartment: 2, LevelMM: 30, VolumeL: 100, TempDeci: 201}}}
		withTank.Help = &tank.Help{Type: tank.HelpLock, RequestID: 9}
		passOnly := Report{TerminalID: 3, CarID: 7, Received: t0.Add(30 * time.Second), TankOnly: true, Help: &tank.Help{Type: tank.HelpUnlock}}
		frames := []Frame{{TerminalID: 3, CarID: 7, Phone: "013852600100", At: t0, MsgID: 0x0200, Serial: 5, Data: []byte{0x02, 0x00, 0x7d, 0x01}},
			{TerminalID: 3, CarID: 7, Phone: "013852600100", At: t0.Add(time.Second), MsgID: 0x8001, Serial: 1, Down: true, Data: []byte{0x80, 0x01}}}
		submitWait(t, w, []Report{plain, noTime, withTank, passOnly}, frames)

		ctx := context.Background()
		var pos []struct {
			T          int64  `bun:"t"`
			ReceivedAt int64  `bun:"received_at"`
			Lat        int64  `bun:"lat"`
			Speed      int64  `bun:"speed"`
			Mileage    *int64 `bun:"mileage"`
			Fuel       *int64 `bun:"fuel"`
			Blind      int64  `bun:"blind"`
		}
		if err := d.NewSelect().TableExpr("positions").Column("t", "received_at", "lat", "speed", "mileage", "fuel", "blind").OrderExpr("t").Scan(ctx, &pos); err != nil {
			t.Fatal(err)
		}
		if len(pos) != 3 {
			t.Fatalf("positions: %d rows, want 3 (the pass-through report has no position)", len(pos))
		}
		if pos[0].T != t0.UnixMilli() || pos[0].ReceivedAt != t0.UnixMilli()+300 || pos[0].Lat != 39_912_345 || pos[0].Speed != 623 ||
			pos[0].Mileage == nil || *pos[0].Mileage != 123456 || pos[0].Fuel != nil {
			t.Errorf("first position: %+v", pos[0])
		}
		if pos[1].T != noTime.Received.UnixMilli() || pos[1].Mileage != nil || pos[1].Blind != 1 {
			t.Errorf("report without device time: %+v (t must be the received time)", pos[1])
		}
		var ts []struct {
			T         int64  `bun:"t"`
			LockState string `bun:"lock_state"`
			Seal      int64  `bun:"seal"`
			Levels    string `bun:"levels"`
			Help      int64  `bun:"help"`
		}
		if err := d.NewSelect().TableExpr("tank_states").Column("t", "lock_state", "seal", "levels", "help").OrderExpr("t").Scan(ctx, &ts); err != nil {
			t.Fatal(err)
		}
		if len(ts) != 2 {
			t.Fatalf("tank_states: %d rows, want 2", len(ts))
		}
		if ts[0].LockState != tank.LockString(st) || ts[0].Seal != 1 || ts[0].Levels != "1:1200:9800:-15;2:30:100:201" || ts[0].Help != 2 {
			t.Errorf("tank state: %+v", ts[0])
		}
		if ts[1].T != passOnly.Received.UnixMilli() || ts[1].LockState != "" || ts[1].Help != 1 {
			t.Errorf("pass-through tank state: %+v", ts[1])
		}
		var fr []struct {
			MsgID int64  `bun:"msg_id"`
			Down  int64  `bun:"down"`
			Data  []byte `bun:"data"`
			Phone string `bun:"phone"`
		}
		if err := d.NewSelect().TableExpr("raw_frames").Column("msg_id", "down", "data", "phone").OrderExpr("id").Scan(ctx, &fr); err != nil {
			t.Fatal(err)
		}
		if len(fr) != 2 || fr[0].MsgID != 0x0200 || string(fr[0].Data) != "\x02\x00\x7d\x01" || fr[1].Down != 1 || fr[0].Phone != "013852600100" {
			t.Errorf("frames: %+v", fr)
		}
		if b := <-batches; len(b) != 4 || b[2].Tank != st {
			t.Errorf("subscriber got %d reports", len(b))
		}
		if s := w.Stats(); s.CommittedReports != 4 || s.CommittedFrames != 2 || s.Batches != 1 || s.Queued != 0 || s.Retrying {
			t.Errorf("stats: %+v", s)
		}
	})
}

func TestWriterIgnoresResentReports(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w := NewWriter(d, WriterConfig{MaxDelay: -1}, quietLog())
		startWriter(t, w)
		r := sampleReport(7, 3, 0)
		r.Help = &tank.Help{Type: tank.HelpUnlock, RequestID: 1}
		// in one statement, then again in a later transaction (the terminal did not get the ack)
		submitWait(t, w, []Report{r, r}, nil)
		again := r
		again.Received = r.Received.Add(time.Minute)
		submitWait(t, w, []Report{again, sampleReport(7, 3, 1)}, nil)
		if n := count(t, d, "positions"); n != 2 {
			t.Errorf("positions: %d, want 2", n)
		}
		if n := count(t, d, "tank_states"); n != 1 {
			t.Errorf("tank_states: %d, want 1", n)
		}
	})
}

// TestWriterRetriesUntilCommitted: the store fails three times; nothing is dropped, every done is
// called once with nil, the backoff doubles, and a Submit beyond the queue limit waits for the commit.
func TestWriterRetriesUntilCommitted(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w := NewWriter(d, WriterConfig{MaxDelay: -1, QueueLimit: 4}, quietLog())
		real := w.commit
		fails := 3
		attempted := make(chan struct{}, 16)
		w.commit = func(ctx context.Context, rs []Report, fs []Frame) error {
			attempted <- struct{}{}
			if fails > 0 {
				fails--
				return errors.New("disk full")
			}
			return real(ctx, rs, fs)
		}
		var delays []time.Duration
		release, waiting := make(chan struct{}), make(chan struct{})
		w.wait = func(ctx context.Context, d time.Duration) error {
			delays = append(delays, d)
			if len(delays) == 3 {
				close(waiting)
				<-release // hold the last retry until the blocked Submit is proven to wait
			}
			return nil
		}
		blocked := make(chan struct{}, 1)
		w.onBlock = func() {
			select {
			case blocked <- struct{}{}:
			default:
			}
		}
		startWriter(t, w)

		var mu sync.Mutex
		calls := map[int]int{}
		done := func(i int) func(error) {
			return func(err error) {
				if err != nil {
					t.Errorf("done %d: %v", i, err)
				}
				mu.Lock()
				calls[i]++
				mu.Unlock()
			}
		}
		if err := w.Submit(context.Background(), []Report{sampleReport(1, 1, 0), sampleReport(1, 1, 1)}, []Frame{{TerminalID: 1, Phone: "1", At: t0, Data: []byte{1}}}, done(0)); err != nil {
			t.Fatal(err)
		}
		<-attempted // the first batch is in flight and failing: 3 of 4 queue slots are taken
		returned := make(chan error, 1)
		go func() {
			returned <- w.Submit(context.Background(), []Report{sampleReport(1, 1, 2), sampleReport(1, 1, 3)}, nil, done(1))
		}()
		<-blocked
		<-waiting
		select {
		case err := <-returned:
			t.Fatalf("Submit returned (%v) while the queue was full", err)
		default:
		}
		if s := w.Stats(); s.Queued != 3 || s.Blocked != 1 || !s.Retrying || s.LastError != "disk full" {
			t.Errorf("stats while failing: %+v", s)
		}
		close(release)
		if err := <-returned; err != nil {
			t.Fatal(err)
		}
		final := make(chan struct{})
		if err := w.Submit(context.Background(), nil, nil, func(error) { close(final) }); err != nil {
			t.Fatal(err)
		}
		<-final
		mu.Lock()
		defer mu.Unlock()
		if calls[0] != 1 || calls[1] != 1 {
			t.Errorf("done calls: %v", calls)
		}
		if n := count(t, d, "positions"); n != 4 {
			t.Errorf("positions: %d, want 4", n)
		}
		if n := count(t, d, "raw_frames"); n != 1 {
			t.Errorf("raw_frames: %d, want 1", n)
		}
		want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
		if len(delays) != 3 || delays[0] != want[0] || delays[1] != want[1] || delays[2] != want[2] {
			t.Errorf("backoff %v, want %v", delays, want)
		}
		if s := w.Stats(); s.Retrying || s.LastError != "" || s.Queued != 0 || s.Blocked != 0 {
			t.Errorf("stats after recovery: %+v", s)
		}
	})
}

func TestWriterBackoffCapsAtFiveSeconds(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	w := NewWriter(d, WriterConfig{MaxDelay: -1}, quietLog())
	real := w.commit
	fails := 9
	w.commit = func(ctx context.Context, rs []Report, fs []Frame) error {
		if fails > 0 {
			fails--
			return errors.New("database is down")
		}
		return real(ctx, rs, fs)
	}
	var delays []time.Duration
	w.wait = func(ctx context.Context, d time.Duration) error { delays = append(delays, d); return nil }
	startWriter(t, w)
	submitWait(t, w, []Report{sampleReport(1, 1, 0)}, nil)
	if len(delays) != 9 || delays[5] != 3200*time.Millisecond || delays[6] != 5*time.Second || delays[8] != 5*time.Second {
		t.Errorf("delays %v", delays)
	}
}

func TestWriterShutdown(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)

	// committed at shutdown: work queued before Run ends is flushed
	w := NewWriter(d, WriterConfig{}, quietLog())
	got := make(chan error, 1)
	if err := w.Submit(context.Background(), []Report{sampleReport(1, 1, 0)}, nil, func(err error) { got <- err }); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Errorf("flushed submission: %v", err)
	}
	if err := w.Submit(context.Background(), nil, nil, func(error) { t.Error("done called after shutdown") }); !errors.Is(err, ErrWriterClosed) {
		t.Errorf("Submit after Run: %v", err)
	}

	// the store stays down: the batch is failed (no ack), never reported as committed
	w = NewWriter(d, WriterConfig{MaxDelay: -1}, quietLog())
	attempted := make(chan struct{}, 8)
	w.commit = func(context.Context, []Report, []Frame) error { attempted <- struct{}{}; return errors.New("down") }
	w.wait = func(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() }
	ctx, cancel = context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- w.Run(ctx) }()
	if err := w.Submit(context.Background(), []Report{sampleReport(1, 1, 5)}, nil, func(err error) { got <- err }); err != nil {
		t.Fatal(err)
	}
	<-attempted
	cancel()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	if err := <-got; !errors.Is(err, ErrWriterClosed) {
		t.Errorf("done at failed shutdown: %v", err)
	}
	if s := w.Stats(); s.Queued != 0 {
		t.Errorf("queued after shutdown: %d", s.Queued)
	}
}

func TestSubmitGivesUpWhenContextEnds(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	w := NewWriter(d, WriterConfig{QueueLimit: 1}, quietLog()) // not running: nothing drains
	if err := w.Submit(context.Background(), []Report{sampleReport(1, 1, 0)}, nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.onBlock = cancel
	err := w.Submit(ctx, []Report{sampleReport(1, 1, 1)}, nil, func(error) { t.Error("done called for a refused submission") })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Submit: %v", err)
	}
	if s := w.Stats(); s.Queued != 1 || s.Blocked != 0 {
		t.Errorf("stats: %+v", s)
	}
}

// TestTrySubmitNeverWaits: with no room TrySubmit returns ErrQueueFull at once, queues nothing and
// keeps done; with room (or an empty queue, whatever the size) it queues like Submit.
func TestTrySubmitNeverWaits(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	w := NewWriter(d, WriterConfig{QueueLimit: 2}, quietLog()) // not running: nothing drains
	refused := func(error) { t.Error("done called for a refused submission") }
	if err := w.TrySubmit([]Report{sampleReport(1, 1, 0), sampleReport(1, 1, 1), sampleReport(1, 1, 2)}, nil, nil); err != nil {
		t.Fatalf("empty queue: %v", err) // larger than the queue, taken when it is empty
	}
	if err := w.TrySubmit([]Report{sampleReport(1, 1, 3)}, nil, refused); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("full queue: %v", err)
	}
	if s := w.Stats(); s.Queued != 3 || s.Blocked != 0 {
		t.Errorf("stats: %+v", s)
	}
}

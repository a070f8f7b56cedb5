package telemetry

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
)

// WriterConfig sizes the group commit.
type WriterConfig struct {
	MaxBatch   int           // reports (and, separately, frames) per transaction; 0 = 2000
	MaxDelay   time.Duration // how long a batch waits for company once work arrived; 0 = 10ms, <0 = none
	QueueLimit int           // reports + frames accepted and not yet committed; 0 = 50000
}

func (c WriterConfig) withDefaults() WriterConfig {
	if c.MaxBatch <= 0 {
		c.MaxBatch = 2000
	}
	if c.MaxDelay == 0 {
		c.MaxDelay = 10 * time.Millisecond
	}
	if c.MaxDelay < 0 {
		c.MaxDelay = 0
	}
	if c.QueueLimit <= 0 {
		c.QueueLimit = 50000
	}
	return c
}

// WriterStats is a snapshot of the writer for metrics and health.
type WriterStats struct {
	Queued           int           // reports + frames accepted, not yet committed (the in-flight batch included)
	Blocked          int           // Submit calls waiting for room
	CommittedReports int64         // reports committed since start
	CommittedFrames  int64         // frames committed since start
	Batches          int64         // transactions committed
	CommitTime       time.Duration // spent in successful commits
	LastError        string        // the last commit error ("" after a successful commit)
	Retrying         bool          // a batch is waiting to be retried
}

// ErrWriterClosed is returned by Submit after Run has returned, and given to the done callbacks of
// submissions that could not be committed while shutting down.
var ErrWriterClosed = errors.New("telemetry: history writer is shut down")

// Backoff bounds of a failed commit.
const (
	retryFirst = 100 * time.Millisecond
	retryMax   = 5 * time.Second
)

// shutdownFlush bounds the last commit attempt once Run's context has ended.
const shutdownFlush = 10 * time.Second

type histSubmission struct {
	reports []Report
	frames  []Frame
	done    func(error)
}

func (s *histSubmission) size() int { return len(s.reports) + len(s.frames) }

// Writer stores reports and frames with group commit: many submissions share one transaction, and each
// submission's done callback runs only after that transaction committed. The gateway acknowledges a
// report to the terminal from done, so nothing acknowledged is ever lost.
type Writer struct {
	d   *db.DB
	cfg WriterConfig
	log *slog.Logger

	mu      sync.Mutex
	pending []*histSubmission
	queued  int
	room    chan struct{} // closed (and replaced) whenever queued shrinks or the writer stops
	stopped bool
	stats   WriterStats
	subs    []func([]Report)
	after   []func()  // OnBatchDone
	conv    Converter // makes Levels volumes before each commit; nil = no conversion

	wake chan struct{} // buffered 1: work arrived

	// Seams for tests: the transaction and the wait between retries.
	commit  func(ctx context.Context, reports []Report, frames []Frame) error
	release func() // after the last commit
	wait    func(ctx context.Context, d time.Duration) error
	onBlock func() // called when a Submit starts waiting for room
}

// NewWriter returns a writer over d; call Run to start it.
func NewWriter(d *db.DB, cfg WriterConfig, log *slog.Logger) *Writer {
	if log == nil {
		log = slog.Default()
	}
	w := &Writer{d: d, cfg: cfg.withDefaults(), log: log, room: make(chan struct{}), wake: make(chan struct{}, 1)}
	w.commit, w.release = histCommitter(d, true)
	w.wait = histWait
	return w
}

func histWait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Submit queues reports and frames for the next commit. It blocks while the queue is full (this is the
// memory bound: the gateway stops reading its sockets) or until ctx ends (then done is not called and
// ctx.Err() is returned). done is called exactly once, from the writer goroutine, after everything of
// this submission is committed (nil) — or with an error only when the writer is shutting down. A
// submission larger than the whole queue is accepted when the queue is empty, so it cannot wait forever.
// The slices belong to the writer from now on.
func (w *Writer) Submit(ctx context.Context, reports []Report, frames []Frame, done func(error)) error {
	s := newSubmission(reports, frames, done)
	blocked := false
	defer func() {
		if blocked {
			w.mu.Lock()
			w.stats.Blocked--
			w.mu.Unlock()
		}
	}()
	for {
		room, err := w.queue(s, !blocked)
		if room == nil {
			return err
		}
		blocked = true
		if w.onBlock != nil {
			w.onBlock()
		}
		select {
		case <-room:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ErrQueueFull: TrySubmit found no room in the queue, and queued nothing.
var ErrQueueFull = errors.New("telemetry: history writer's queue is full")

// TrySubmit is Submit without the wait: when the queue has no room it returns ErrQueueFull, queues
// nothing and keeps done. The gateway's reactor loop submits this way: it serves every terminal of a
// node and must not wait for one (the session waits on a goroutine of its own instead).
func (w *Writer) TrySubmit(reports []Report, frames []Frame, done func(error)) error {
	room, err := w.queue(newSubmission(reports, frames, done), false)
	if room != nil {
		return ErrQueueFull
	}
	return err
}

func newSubmission(reports []Report, frames []Frame, done func(error)) *histSubmission {
	if done == nil {
		done = func(error) {}
	}
	return &histSubmission{reports: reports, frames: frames, done: done}
}

// queue adds s to the next commit when the queue has room (or is empty), else returns the channel
// closed when room is made; count counts the submission as blocked (the writer's statistics) then.
func (w *Writer) queue(s *histSubmission, count bool) (room chan struct{}, err error) {
	n := s.size()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return nil, ErrWriterClosed
	}
	if w.queued == 0 || w.queued+n <= w.cfg.QueueLimit {
		w.pending = append(w.pending, s)
		w.queued += n
		select {
		case w.wake <- struct{}{}:
		default:
		}
		return nil, nil
	}
	if count {
		w.stats.Blocked++
	}
	return w.room, nil
}

// Converter makes a car's probe levels volumes (strapping table or probe volume, V20, mass);
// *tank.Catalog satisfies it.
type Converter interface {
	Convert(carID int64, l *tank.Levels) []tank.Reading
}

// SetConverter sets the converter of level reports (call before Run). With one, every report with
// levels gets its Readings before the commit, and one level_readings row per reading is inserted in
// the report's transaction (docs/DECISIONS.md D35).
func (w *Writer) SetConverter(c Converter) {
	w.mu.Lock()
	w.conv = c
	w.mu.Unlock()
}

// convert fills the Readings of the batch's level reports that have none yet (a retried batch keeps
// what it got the first time).
func (w *Writer) convert(reports []Report) {
	w.mu.Lock()
	c := w.conv
	w.mu.Unlock()
	if c == nil {
		return
	}
	for i := range reports {
		r := &reports[i]
		if r.Levels != nil && r.Levels.N > 0 && r.Readings == nil && r.CarID != 0 {
			r.Readings = c.Convert(r.CarID, r.Levels)
		}
	}
}

// Subscribe registers fn to receive each committed batch of reports in commit order (live state,
// alarms). fn runs on the writer goroutine: it must be quick and must not modify the slice (every
// subscriber gets the same one); it may keep it.
func (w *Writer) Subscribe(fn func([]Report)) {
	w.mu.Lock()
	w.subs = append(w.subs, fn)
	w.mu.Unlock()
}

// OnBatchDone registers fn to run on the writer goroutine after the done callbacks of each committed
// batch: the gateway writes the acknowledgements they queued, one write per terminal (D108).
func (w *Writer) OnBatchDone(fn func()) {
	w.mu.Lock()
	w.after = append(w.after, fn)
	w.mu.Unlock()
}

// Stats returns a snapshot.
func (w *Writer) Stats() WriterStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats
	s.Queued = w.queued
	return s
}

// Run commits batches until ctx ends; then it stops taking work, tries once more to commit what it
// holds (bounded by shutdownFlush), fails the rest with ErrWriterClosed and returns.
func (w *Writer) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return w.shutdown()
		case <-w.wake:
		}
		if w.cfg.MaxDelay > 0 && !w.full() {
			// Group commit: give concurrent sessions a moment to join this transaction.
			if err := w.gather(ctx); err != nil {
				return w.shutdown()
			}
		}
		for {
			batch := w.take()
			if len(batch) == 0 {
				break
			}
			if err := w.commitRetrying(ctx, batch); err != nil {
				w.putBack(batch)
				return w.shutdown()
			}
			if w.cfg.MaxDelay > 0 && !w.full() {
				// Group commit between commits too. At a fleet's steady rate what arrived during one
				// commit is a few reports; committed at once, back to back, each transaction carries
				// its fixed cost (round trips, the engines' and subscribers' work per batch) for a
				// handful of reports: 390 µs of CPU per report at 1,200 reports/s (D126).
				if err := w.gather(ctx); err != nil {
					return w.shutdown()
				}
			}
		}
	}
}

// gather waits up to MaxDelay, or until a full batch is queued, or ctx ends.
func (w *Writer) gather(ctx context.Context) error {
	t := time.NewTimer(w.cfg.MaxDelay)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		case <-w.wake:
			if w.full() {
				return nil
			}
		}
	}
}

func (w *Writer) full() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	r, f := 0, 0
	for _, s := range w.pending {
		r, f = r+len(s.reports), f+len(s.frames)
		if r >= w.cfg.MaxBatch || f >= w.cfg.MaxBatch {
			return true
		}
	}
	return false
}

// take removes whole submissions from the queue head until the batch reaches MaxBatch reports or
// frames. They still count as queued until committed: that is the memory bound while retrying.
func (w *Writer) take() []*histSubmission {
	w.mu.Lock()
	defer w.mu.Unlock()
	r, f, i := 0, 0, 0
	for i < len(w.pending) && r < w.cfg.MaxBatch && f < w.cfg.MaxBatch {
		r, f = r+len(w.pending[i].reports), f+len(w.pending[i].frames)
		i++
	}
	batch := w.pending[:i:i]
	w.pending = w.pending[i:]
	return batch
}

func (w *Writer) putBack(batch []*histSubmission) {
	w.mu.Lock()
	w.pending = append(batch, w.pending...)
	w.mu.Unlock()
}

func histFlatten(batch []*histSubmission) ([]Report, []Frame) {
	r, f := 0, 0
	for _, s := range batch {
		r, f = r+len(s.reports), f+len(s.frames)
	}
	reports, frames := make([]Report, 0, r), make([]Frame, 0, f)
	for _, s := range batch {
		reports = append(reports, s.reports...)
		frames = append(frames, s.frames...)
	}
	return reports, frames
}

// commitRetrying commits batch, retrying with backoff until it succeeds or ctx ends (never dropping it).
func (w *Writer) commitRetrying(ctx context.Context, batch []*histSubmission) error {
	reports, frames := histFlatten(batch)
	w.convert(reports)
	delay := retryFirst
	for {
		start := time.Now()
		err := w.commit(ctx, reports, frames)
		if err == nil {
			w.mu.Lock()
			w.stats.CommitTime += time.Since(start)
			w.mu.Unlock()
			w.committed(batch, reports, frames)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		w.log.Error("history commit failed; keeping the batch and retrying", "reports", len(reports),
			"frames", len(frames), "retry_in", delay, "err", err)
		w.mu.Lock()
		w.stats.LastError, w.stats.Retrying = err.Error(), true
		w.mu.Unlock()
		if err := w.wait(ctx, delay); err != nil {
			return err
		}
		delay = min(2*delay, retryMax)
	}
}

func (w *Writer) committed(batch []*histSubmission, reports []Report, frames []Frame) {
	n := len(reports) + len(frames)
	w.mu.Lock()
	w.queued -= n
	w.stats.CommittedReports += int64(len(reports))
	w.stats.CommittedFrames += int64(len(frames))
	w.stats.Batches++
	w.stats.LastError, w.stats.Retrying = "", false
	close(w.room)
	w.room = make(chan struct{})
	subs, after := w.subs, w.after
	w.mu.Unlock()
	for _, s := range batch {
		s.done(nil)
	}
	for _, fn := range after {
		fn()
	}
	if len(reports) > 0 {
		for _, fn := range subs {
			fn(reports)
		}
	}
}

func (w *Writer) shutdown() error {
	if w.release != nil {
		defer w.release()
	}
	w.mu.Lock()
	w.stopped = true
	close(w.room) // wake blocked Submits: they now see stopped
	w.room = make(chan struct{})
	w.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), shutdownFlush)
	defer cancel()
	for {
		batch := w.take()
		if len(batch) == 0 {
			return nil
		}
		reports, frames := histFlatten(batch)
		w.convert(reports)
		if err := w.commit(ctx, reports, frames); err != nil {
			w.log.Error("history commit at shutdown failed; unacknowledged reports will be re-sent by the terminals",
				"reports", len(reports), "frames", len(frames), "err", err)
			w.fail(append(batch, w.drain()...))
			return nil
		}
		w.committed(batch, reports, frames)
	}
}

func (w *Writer) drain() []*histSubmission {
	w.mu.Lock()
	defer w.mu.Unlock()
	rest := w.pending
	w.pending = nil
	return rest
}

func (w *Writer) fail(batch []*histSubmission) {
	n := 0
	for _, s := range batch {
		n += s.size()
	}
	w.mu.Lock()
	w.queued -= n
	w.mu.Unlock()
	for _, s := range batch {
		s.done(ErrWriterClosed)
	}
}

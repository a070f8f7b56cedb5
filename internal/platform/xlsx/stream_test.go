package xlsx

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

type buffer struct {
	discard
	bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) { return b.Buffer.Write(p) }

func rowsOf(n int) Rows {
	return func(emit func([]any) error) error {
		for i := 0; i < n; i++ {
			if err := emit([]any{fmt.Sprintf("沪A%05d", i), i, float64(i) * 1.5, "华东运输"}); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestStreamWritesTheRows(t *testing.T) {
	w := &buffer{discard: discard{h: http.Header{}}}
	s := &Sheet{Name: "export.x", ASCII: "x", Head: []string{"a", "b", "c", "d"}}
	r, _ := http.NewRequest("POST", "/", nil)
	r.Header.Set("Accept-Language", "en-US")
	if err := Stream(w, r, s, rowsOf(3)); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(w.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows(f.GetSheetName(0))
	if len(rows) != 4 || rows[0][0] != "a" || rows[3][0] != "沪A00002" || rows[3][2] != "3" {
		t.Fatalf("rows = %v", rows)
	}
	if w.Header().Get("Content-Type") != ContentType {
		t.Errorf("headers = %v", w.Header())
	}
}

// peakHeap runs fn while sampling the heap in use, and returns the peak above the heap before it.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	fn()
	close(done)
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	if peak.Load() < base {
		return 0
	}
	return peak.Load() - base
}

// TANKWATCH_PERF_STATS=1 go test ./internal/platform/xlsx -run ExportHeap -v: the peak heap of a
// 10,000- and a 100,000-row export written whole (Write) and streamed (Stream); docs/PERFORMANCE.md.
func TestExportHeap(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF_STATS") != "1" {
		t.Skip("set TANKWATCH_PERF_STATS=1")
	}
	head := []string{"plate", "trips", "shippedV20", "lossL", "km", "tonKm", "group", "product", "a", "b", "c", "d", "e", "f"}
	row := func(i int) []any {
		return []any{fmt.Sprintf("沪A%05d", i), i % 40, float64(i) * 1.5, 12.5, 4321.1, 98765.4, "华东运输有限公司", "92#汽油", 1, 2, 3, 4, 5, 6}
	}
	var stream10k uint64
	for _, n := range []int{10_000, 100_000, 300_000} {
		s := &Sheet{Name: "export.x", ASCII: "x", Head: head}
		var whole uint64
		if n <= 100_000 { // whole sheets beyond that take gigabytes
			whole = peakHeap(func() {
				sh := *s
				for i := 0; i < n; i++ {
					sh.Rows = append(sh.Rows, row(i))
				}
				r, _ := http.NewRequest("GET", "/", nil)
				if err := Write(&discard{h: http.Header{}}, r, &sh); err != nil {
					t.Fatal(err)
				}
			})
		}
		streamed := peakHeap(func() {
			r, _ := http.NewRequest("GET", "/", nil)
			err := Stream(&discard{h: http.Header{}}, r, s, func(emit func([]any) error) error {
				for i := 0; i < n; i++ {
					if err := emit(row(i)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%d rows × %d columns: peak heap whole %.1f MiB, streamed %.1f MiB", n, len(head), float64(whole)/(1<<20), float64(streamed)/(1<<20))
		if n == 10_000 {
			stream10k = streamed
		} else if streamed > 3*stream10k+(48<<20) {
			t.Errorf("streamed heap grows with the rows: %d → %d", stream10k, streamed)
		}
	}
}

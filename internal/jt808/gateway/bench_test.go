package gateway

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// ackSink commits at once, as a writer with room in its queue and an instant store would.
type ackSink struct{}

func (ackSink) Submit(_ context.Context, _ []telemetry.Report, _ []telemetry.Frame, done func(error)) error {
	done(nil)
	return nil
}

func (ackSink) TrySubmit(_ []telemetry.Report, _ []telemetry.Frame, done func(error)) error {
	done(nil)
	return nil
}

// BenchmarkSessionIngest streams 0x0200 frames (four standard items and a tank state, 76 bytes on the
// wire) from one terminal over loopback: split, decode, build the report, submit, write the ack. The
// client writes 64 frames, then reads their 64 acks.
func BenchmarkSessionIngest(b *testing.B) {
	e := startWith(b, Config{}, ackSink{}, nil)
	_ = e.srv.m.register(prometheus.NewRegistry()) // count like production does
	c := e.dial(jt808.V2013, term1.Phone)          // the registry's terminal ID and plate (identity check)
	c.login()

	const batch = 64
	loc := benchReport()
	var wire []byte
	for i := range batch {
		var err error
		if wire, err = jt808.AppendMessage(wire, jt808.Header{Phone: c.phone, Serial: uint16(i)}, loc); err != nil {
			b.Fatal(err)
		}
	}
	rounds := (b.N + batch - 1) / batch
	b.SetBytes(int64(len(wire) / batch))
	b.ReportAllocs()
	b.ResetTimer()
	for range rounds {
		c.write(wire)
		for range batch {
			if _, err := c.tryRead(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(rounds*batch)/b.Elapsed().Seconds(), "frames/s")
}

// benchReport is a 0x0200 with four standard items and a tank state (76 bytes on the wire).
func benchReport() *jt808.Location {
	loc := location(22543096)
	loc.AddItem(jt808.ItemFuel, []byte{1, 0x90})
	loc.AddItem(jt808.ItemSatellites, []byte{12})
	loc.AddItem(0xE1, []byte{1, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1})
	return loc
}

// BenchmarkSessionRoundTrip: one report per write, its ack read before the next, as a terminal does
// (a report every few seconds): every frame wakes the session and every ack is a write of its own,
// where BenchmarkSessionIngest's 64-frame bursts share reads and writes.
func BenchmarkSessionRoundTrip(b *testing.B) {
	e := startWith(b, Config{}, ackSink{}, nil)
	_ = e.srv.m.register(prometheus.NewRegistry())
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	wire, err := jt808.AppendMessage(nil, jt808.Header{Phone: c.phone}, benchReport())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c.write(wire)
		if _, err := c.tryRead(); err != nil {
			b.Fatal(err)
		}
	}
}

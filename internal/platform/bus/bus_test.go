package bus

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// adapters returns the in-process bus and, when TANKWATCH_TEST_NATS is set, two NATS buses of one
// prefix (so that a test sees what another node sees).
func adapters(t *testing.T) map[string][2]Bus {
	out := map[string][2]Bus{}
	hub := NewHub()
	out["local"] = [2]Bus{hub.Attach("a"), hub.Attach("b")}
	url := os.Getenv("TANKWATCH_TEST_NATS")
	if url == "" {
		return out
	}
	prefix := RandomPrefix("twt")
	ctx := context.Background()
	a, err := DialNATS(ctx, NATSConfig{URL: url, Node: "a", Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	b, err := DialNATS(ctx, NATSConfig{URL: url, Node: "b", Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := a.Destroy(ctx); err != nil {
			t.Error(err)
		}
		_ = a.Close()
		_ = b.Close()
	})
	out["nats"] = [2]Bus{a, b}
	return out
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		p, s string
		ok   bool
	}{
		{"tw.rep.*", "tw.rep.a", true}, {"tw.rep.*", "tw.rep.a.b", false}, {"tw.rep.>", "tw.rep.a.b", true},
		{"tw.rep.>", "tw.rep", false}, {"tw.cmd.a", "tw.cmd.a", true}, {"tw.cmd.a", "tw.cmd.b", false},
		{"tw.*.a", "tw.rep.a", true}, {"tw.rep", "tw.rep.a", false},
	} {
		if Match(c.p, c.s) != c.ok {
			t.Errorf("Match(%q, %q) = %v", c.p, c.s, !c.ok)
		}
	}
}

func TestBus(t *testing.T) {
	for name, buses := range adapters(t) {
		t.Run(name, func(t *testing.T) {
			a, b := buses[0], buses[1]
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			pre := "tw"
			if n, ok := a.(*NATS); ok {
				pre = n.Prefix()
			}

			got := make(chan string, 10)
			stop, err := b.Subscribe(pre+".rep.*", func(subject string, data []byte) { got <- subject + "=" + string(data) })
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			for _, m := range []string{"1", "2", "3"} {
				if err := a.Publish(ctx, pre+".rep.a", []byte(m)); err != nil {
					t.Fatal(err)
				}
			}
			for _, want := range []string{"1", "2", "3"} {
				select {
				case g := <-got:
					if g != pre+".rep.a="+want {
						t.Fatalf("got %q, want message %s in order", g, want)
					}
				case <-ctx.Done():
					t.Fatal("published message never arrived")
				}
			}

			if _, err := a.Request(ctx, pre+".cmd.b", []byte("x")); !errors.Is(err, ErrNoResponder) {
				t.Fatalf("request to nobody: %v", err)
			}
			stopR, err := b.Respond(pre+".cmd.b", func(_ context.Context, d []byte) []byte { return append([]byte("re:"), d...) })
			if err != nil {
				t.Fatal(err)
			}
			defer stopR()
			if r, err := a.Request(ctx, pre+".cmd.b", []byte("x")); err != nil || string(r) != "re:x" {
				t.Fatalf("request: %q %v", r, err)
			}

			// notices: only the listeners of the subject get them, in order
			heard := make(chan string, 10)
			stopL, err := b.Listen(pre+".video.b.x", func(d []byte) { heard <- string(d) })
			if err != nil {
				t.Fatal(err)
			}
			stopO, err := b.Listen(pre+".video.b.y", func(d []byte) { heard <- "y:" + string(d) })
			if err != nil {
				t.Fatal(err)
			}
			defer stopO()
			for _, m := range []string{"1", "2", "3"} {
				if err := a.Notify(pre+".video.b.x", []byte(m)); err != nil {
					t.Fatal(err)
				}
			}
			for _, want := range []string{"1", "2", "3"} {
				select {
				case g := <-heard:
					if g != want {
						t.Fatalf("heard %q, want notice %s in order", g, want)
					}
				case <-ctx.Done():
					t.Fatal("notice never arrived")
				}
			}
			// a notice above NATS's max_payload (1 MB by default) arrives whole, in its place
			big := make([]byte, 2_500_000)
			for i := range big {
				big[i] = byte(i * 7)
			}
			for _, m := range [][]byte{big, []byte("4")} {
				if err := a.Notify(pre+".video.b.x", m); err != nil {
					t.Fatal(err)
				}
			}
			for _, want := range []string{string(big), "4"} {
				select {
				case g := <-heard:
					if g != want {
						t.Fatalf("heard %d bytes, want %d in order", len(g), len(want))
					}
				case <-ctx.Done():
					t.Fatal("notice never arrived")
				}
			}
			stopL()
			if err := a.Notify(pre+".video.b.x", []byte("after")); err != nil {
				t.Fatal(err)
			}
			if err := a.Notify(pre+".video.b.y", []byte("last")); err != nil {
				t.Fatal(err)
			}
			select {
			case g := <-heard:
				if g != "y:last" {
					t.Fatalf("after stop: heard %q", g)
				}
			case <-ctx.Done():
				t.Fatal("notice to the other listener never arrived")
			}

			ka, err := a.KV(ctx, "owners", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			kb, err := b.KV(ctx, "owners", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := kb.Get(ctx, "t1"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("absent key: %v", err)
			}
			r1, err := ka.Create(ctx, "t1", []byte("a"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := kb.Create(ctx, "t1", []byte("b")); !errors.Is(err, ErrExists) {
				t.Fatalf("second create: %v", err)
			}
			r2, err := kb.Update(ctx, "t1", []byte("b"), r1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ka.Update(ctx, "t1", []byte("a"), r1); !errors.Is(err, ErrConflict) {
				t.Fatalf("stale update: %v", err)
			}
			if err := ka.Delete(ctx, "t1", r1); !errors.Is(err, ErrConflict) {
				t.Fatalf("stale delete: %v", err)
			}
			if v, rev, err := ka.Get(ctx, "t1"); err != nil || string(v) != "b" || rev != r2 {
				t.Fatalf("get: %q %d %v", v, rev, err)
			}
			if err := kb.Delete(ctx, "t1", r2); err != nil {
				t.Fatal(err)
			}
			if _, _, err := ka.Get(ctx, "t1"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("deleted key: %v", err)
			}
			if _, err := ka.Create(ctx, "t1", []byte("a")); err != nil {
				t.Fatalf("create after delete: %v", err)
			}
		})
	}
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/stats"
)

// runStats is "tankwatch stats rebuild --from YYYY-MM-DD --to YYYY-MM-DD": the trip rollup (and every
// rollup registered with it) recomputed from the waybills over those days (D50, D55), then the lock and
// seal rollups with their monthly, month-to-date and group layers from the lock events and seal records
// (D54, D80).
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "rebuild" {
		fmt.Fprint(stderr, usage)
		return errors.New("stats needs rebuild")
	}
	var cfg config.Config
	var from, to string
	b := newBinder("stats rebuild", stderr)
	config.BindStore(b, &cfg)
	b.FS.StringVar(&from, "from", "", "first day, YYYY-MM-DD (Asia/Shanghai)")
	b.FS.StringVar(&to, "to", "", "last day, YYYY-MM-DD (inclusive)")
	if err := parse(b, args[1:]); err != nil {
		return err
	}
	f, err := dayArg("--from", from)
	if err != nil {
		return err
	}
	t, err := dayArg("--to", to)
	if err != nil {
		return err
	}
	if t < f {
		return errors.New("--to is before --from")
	}
	d, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	a := app.New(cfg, d, app.NewLogger(stderr, "text")) // the parts register their rollups with the trip rollup
	start := time.Now()
	n, err := stats.Rebuild(ctx, d, f, t)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rebuilt %d car-days from %s to %s in %s\n", n, from, to, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if n, err = a.RebuildLockStats(ctx, f, t); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rebuilt %d lock and seal car-days from %s to %s in %s\n", n, from, to, time.Since(start).Round(time.Millisecond))
	return nil
}

func dayArg(name, v string) (int, error) {
	if v == "" {
		return 0, fmt.Errorf("%s is required", name)
	}
	t, err := time.Parse("2006-01-02", v)
	if err != nil {
		return 0, fmt.Errorf("%s: want YYYY-MM-DD, got %q", name, v)
	}
	return t.Year()*10000 + int(t.Month())*100 + t.Day(), nil
}

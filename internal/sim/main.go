package sim

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"
)

// statsEvery is how often Main prints the counters.
const statsEvery = 10 * time.Second

// Main is `tankwatch sim`: it drives a fleet against a gateway until ctx ends, printing the counters
// every 10 s on stdout and logging to stderr.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := Config{}
	fs.StringVar(&cfg.Gateway, "gateway", "127.0.0.1:8808", "JT/T 808 gateway address (host:port), or several separated by commas: a terminal whose gateway refuses, drops or stops answering moves on to the next")
	fs.IntVar(&cfg.Vehicles, "vehicles", 100, "number of simulated terminals")
	fs.DurationVar(&cfg.Interval, "interval", 10*time.Second, "report interval while driving (simulated time; parked vehicles report every 3×interval)")
	fs.Int64Var(&cfg.Seed, "seed", 1, "random seed: the same seed drives the same fleet")
	fs.Float64Var(&cfg.Speedup, "speedup", 1, "simulated time runs this many times faster than the clock")
	fs.IntVar(&cfg.First, "first", 0, "index of the first vehicle (to split a fleet over several processes)")
	fs.Float64Var(&cfg.Misbehave, "misbehave", 1, "scale of incident probabilities (0: a perfectly behaved fleet)")
	fs.BoolVar(&cfg.DayAtStart, "day-at-start", false, "the working day starts at start-up (as if it were 09:00), so the fleet drives whatever the hour")
	fs.DurationVar(&cfg.HelpEvery, "help-every", 0, "every driver also asks for help (unlock and lock in turn) this often, simulated time (0: only the seeded incidents)")
	fs.StringVar(&cfg.Plate, "plate", "", "with --vehicles 1: the plate to register with, as in the registry (default: the demo fleet's)")
	fs.StringVar(&cfg.TerminalID, "terminal-id", "", "with --vehicles 1: the terminal ID to register with, as in the registry (default: the demo fleet's, T000000 + index)")
	verbose := fs.Bool("v", false, "log every connection event")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the simulator to this file until it stops")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sim: unexpected argument %q", fs.Arg(0))
	}
	if cfg.HelpEvery < 0 {
		return errors.New("sim: --help-every must not be negative")
	}
	if cfg.Interval <= 0 || cfg.Speedup <= 0 {
		return errors.New("sim: --interval and --speedup must be positive")
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	if *cpuProfile != "" {
		out, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	cfg.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	f, err := Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer f.Stop()
	fmt.Fprintf(stdout, "sim: %d vehicles from #%d against %s, interval %v, speedup %g, seed %d\n",
		cfg.Vehicles, cfg.First, cfg.Gateway, cfg.Interval, cfg.Speedup, cfg.Seed)
	tick := time.NewTicker(statsEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			f.Stop()
			fmt.Fprintln(stdout, "sim: stopped:", f.Stats())
			return nil
		case <-tick.C:
			fmt.Fprintln(stdout, "sim:", f.Stats())
		}
	}
}

// Command tankwatch is the TankWatch server: HTTP API and console, store migration and administration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // user time zones work on machines without zoneinfo

	"tankwatch/internal/app"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/sim"
)

const usage = `usage: tankwatch <command> [flags]

commands:
  serve                         run the HTTP API, console and JT/T 808 gateway (migrates the store first)
  sim --gateway HOST:PORT --vehicles N --interval D --seed S
                                drive N simulated tankers over JT/T 808 against a gateway
  migrate                       apply schema migrations and exit
  admin create --name N --password P
                                create a super administrator in the top group
  admin reset-password --name N [--password P]
                                set a new password (printed when generated) and sign the user out
  admin backup FILE             write a consistent copy of the SQLite store to FILE, also while serve runs
                                (PostgreSQL: prints the pg_dump and point-in-time recovery recipe)
  admin restore FILE            replace the SQLite store with the backup FILE; refused while serve runs,
                                the replaced store is kept as tankwatch.db.before-restore-<time>
  stats rebuild --from YYYY-MM-DD --to YYYY-MM-DD
                                recompute the statistics rollups from the records over those days
  version                       print the version

Every flag can also be set with TANKWATCH_<FLAG> (e.g. TANKWATCH_DB), secrets with TANKWATCH_<FLAG>_FILE.
Run "tankwatch <command> -h" for its flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tankwatch:", err)
		os.Exit(1)
	}
}

func env(k string) (string, bool) { return os.LookupEnv(k) }

func newBinder(name string, stderr io.Writer) *config.Binder {
	fs := flag.NewFlagSet("tankwatch "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return &config.Binder{FS: fs, Env: env}
}

func parse(b *config.Binder, args []string) error {
	if err := b.Err(); err != nil {
		return err
	}
	if err := b.FS.Parse(args); err != nil {
		return err
	}
	if b.FS.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", b.FS.Args())
	}
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		var cfg config.Config
		b := newBinder("serve", stderr)
		config.BindServe(b, &cfg)
		if err := parse(b, args[1:]); err != nil {
			return err
		}
		if err := cfg.Validate(); err != nil {
			return err
		}
		return app.Serve(ctx, cfg, stderr, nil)
	case "sim":
		return sim.Main(ctx, args[1:], stdout, stderr)
	case "migrate":
		var cfg config.Config
		b := newBinder("migrate", stderr)
		config.BindStore(b, &cfg)
		if err := parse(b, args[1:]); err != nil {
			return err
		}
		d, err := app.OpenStore(ctx, cfg)
		if err != nil {
			return err
		}
		defer d.Close()
		fmt.Fprintf(stdout, "migrated the %s store\n", d.Kind)
		return nil
	case "admin":
		return runAdmin(ctx, args[1:], stdout, stderr)
	case "stats":
		return runStats(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "tankwatch", app.Version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func runAdmin(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "backup" || args[0] == "restore") {
		return runBackup(ctx, args[0], args[1:], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "create" && args[0] != "reset-password") {
		fmt.Fprint(stderr, usage)
		return errors.New("admin needs create, reset-password, backup or restore")
	}
	var cfg config.Config
	var name, password string
	b := newBinder("admin "+args[0], stderr)
	config.BindStore(b, &cfg)
	b.FS.StringVar(&name, "name", "", "account name")
	b.FS.StringVar(&password, "password", "", "password (reset-password: generated and printed when omitted)")
	if err := parse(b, args[1:]); err != nil {
		return err
	}
	if name == "" {
		return errors.New("--name is required")
	}
	d, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	a := app.New(cfg, d, app.NewLogger(stderr, "text"))
	if args[0] == "create" {
		if password == "" {
			return errors.New("--password is required")
		}
		if err := a.Org.CreateAdmin(ctx, name, password); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created administrator %s\n", name)
		return nil
	}
	pw, err := a.Org.SetPassword(ctx, name, password)
	if err != nil {
		return err
	}
	if password == "" {
		fmt.Fprintf(stdout, "new password for %s: %s\n", name, pw)
	} else {
		fmt.Fprintf(stdout, "password of %s changed\n", name)
	}
	return nil
}

// runBackup is "tankwatch admin backup FILE" and "tankwatch admin restore FILE" (flags before or after FILE).
func runBackup(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) error {
	var cfg config.Config
	b := newBinder("admin "+cmd, stderr)
	config.BindStore(b, &cfg)
	if err := b.Err(); err != nil {
		return err
	}
	if err := b.FS.Parse(args); err != nil {
		return err
	}
	if b.FS.NArg() == 0 {
		return fmt.Errorf("admin %s needs the backup file: tankwatch admin %s FILE", cmd, cmd)
	}
	file := b.FS.Arg(0)
	if err := parse(b, b.FS.Args()[1:]); err != nil {
		return err
	}
	if cmd == "backup" {
		return app.Backup(ctx, cfg, file, stdout)
	}
	return app.Restore(ctx, cfg, file, stdout)
}

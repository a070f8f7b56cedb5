// Package config reads TankWatch's settings from flags and TANKWATCH_* environment variables (and
// TANKWATCH_*_FILE for secrets). A flag given on the command line wins over the environment, which wins
// over the default.
package config

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Config is the serve/migrate/admin configuration.
type Config struct {
	HTTP           string
	Data           string
	DB             string
	Demo           bool
	Theme          string
	Title          string
	SupplyChainURL string
	LogFormat      string
}

// Themes accepted by --theme.
var Themes = []string{"tankcar", "groundtank", "escort", "telecom"}

// Env looks up an environment variable; tests inject their own.
type Env func(string) (string, bool)

// EnvName is the environment variable of a flag: --supply-chain-url → TANKWATCH_SUPPLY_CHAIN_URL.
func EnvName(flagName string) string {
	return "TANKWATCH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// lookup returns the environment value of a flag: TANKWATCH_X, else the contents of the file named by
// TANKWATCH_X_FILE (trailing newline trimmed).
func lookup(env Env, flagName string) (string, bool, error) {
	name := EnvName(flagName)
	if v, ok := env(name); ok {
		return v, true, nil
	}
	if path, ok := env(name + "_FILE"); ok && path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", false, fmt.Errorf("%s_FILE: %w", name, err)
		}
		return strings.TrimRight(string(b), "\r\n"), true, nil
	}
	return "", false, nil
}

// Binder registers flags whose defaults come from the environment.
type Binder struct {
	FS  *flag.FlagSet
	Env Env
	err error
}

// String binds a string flag.
func (b *Binder) String(p *string, name, def, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		def = v
	}
	b.FS.StringVar(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Bool binds a boolean flag.
func (b *Binder) Bool(p *bool, name string, def bool, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		parsed, perr := strconv.ParseBool(strings.TrimSpace(v))
		if perr != nil {
			b.err = fmt.Errorf("%s: %q is not a boolean", EnvName(name), v)
		}
		def = parsed
	}
	b.FS.BoolVar(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Err returns the first environment error.
func (b *Binder) Err() error { return b.err }

// BindStore binds --data and --db.
func BindStore(b *Binder, c *Config) {
	b.String(&c.Data, "data", "./data", "data folder (SQLite file, uploads)")
	b.String(&c.DB, "db", "", "database: empty = SQLite in the data folder; postgres://user@host:5432/db for PostgreSQL")
}

// BindServe binds every serve flag.
func BindServe(b *Binder, c *Config) {
	b.String(&c.HTTP, "http", "127.0.0.1:8080", "HTTP listen address")
	BindStore(b, c)
	b.Bool(&c.Demo, "demo", false, "seed the demo organisation and accounts")
	b.String(&c.Theme, "theme", "tankcar", "theme: tankcar, groundtank, escort or telecom")
	b.String(&c.Title, "title", "", "platform title shown on the login page and header (default: the theme's)")
	b.String(&c.SupplyChainURL, "supply-chain-url", "", "supply-chain services site opened from the menu")
	b.String(&c.LogFormat, "log-format", "text", "log format: text or json")
}

// Validate checks the values.
func (c *Config) Validate() error {
	valid := false
	for _, t := range Themes {
		valid = valid || t == c.Theme
	}
	if c.Theme != "" && !valid {
		return fmt.Errorf("--theme must be one of %s, not %q", strings.Join(Themes, ", "), c.Theme)
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("--log-format must be text or json, not %q", c.LogFormat)
	}
	if c.DB != "" && !strings.HasPrefix(c.DB, "postgres://") && !strings.HasPrefix(c.DB, "postgresql://") {
		return fmt.Errorf("--db must be empty (SQLite) or a postgres:// URL")
	}
	return nil
}

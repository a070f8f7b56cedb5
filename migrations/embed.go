// Package migrations holds the goose SQL migrations, one folder per dialect, embedded in the binary.
package migrations

import "embed"

// FS holds sqlite/*.sql and postgres/*.sql.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS

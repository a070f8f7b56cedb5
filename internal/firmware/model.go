// Package firmware is the upgrade-package registry and its transfer to terminals (issue 18, access/
// upgradePack, D64–D65): packages uploaded by the platform, pushed by users to terminals of their scope,
// carried by the gateway as sub-packaged 0x8108 (gateway.Upgrade) and tracked per terminal until the
// terminal's 0x0108. Tables: migration 00033.
package firmware

import (
	"github.com/uptrace/bun"
)

// Permission codes (internal/org/menu.json).
const (
	CodePage    = "06-10"
	CodeAdd     = "06-10-01"
	CodeDelete  = "06-10-02"
	CodePush    = "06-10-03"
	CodeRetry   = "06-10-04"
	Module      = "upgradePack"
	ActionPush  = "upgradePush"
	ActionRetry = "upgradeRetry"
)

// Limits, stated on the page and in docs/API.md.
const (
	// MaxPackage: a 0x8108 numbers its sub-packages in a WORD; 65535 × 1000 bytes is a little under
	// 64 MiB, so 32 MiB leaves room and stays a sane size for a mobile link.
	MaxPackage        = 32 << 20
	MaxPushTerminals  = 100 // terminals per push
	MaxRunning        = 10  // transfers at once across the platform
	MaxAttempts       = 3   // automatic attempts per job (a manual retry starts again)
	DefaultValidHours = 72  // how long a job waits for an offline terminal
	MaxValidHours     = 720
	maxVersion        = 64
	maxRemark         = 255
)

// Job statuses.
const (
	StatusQueued  = 1 // waiting for the terminal (offline) or for a transfer slot
	StatusSending = 2 // sub-packages on the way (acked of total)
	StatusSent    = 3 // every sub-package acknowledged; waiting for 0x0108
	StatusAcked   = 4 // the terminal answered 0x0108 (Result)
	StatusFailed  = 5 // Reason says why
)

// Failure reasons (catalogue keys upgradePack.reason.<r>).
const (
	ReasonOffline = "offline" // the terminal did not come online within the validity period
	ReasonTimeout = "timeout" // no answer to sub-packages, or no 0x0108 in time
	ReasonRefused = "refused" // the terminal answered a sub-package with a failure
	ReasonError   = "error"   // the package could not be read or encoded for the terminal
)

// Kinds: 0x8108 upgrade types.
var Kinds = []int{0, 12, 52}

// Package is a firmware_packages row.
type Package struct {
	bun.BaseModel `bun:"table:firmware_packages,alias:p"`

	ID           int64  `bun:"id,pk,autoincrement"`
	Kind         int    `bun:"kind"`
	Manufacturer string `bun:"manufacturer"`
	Version      string `bun:"version"`
	FileName     string `bun:"file_name"`
	Size         int64  `bun:"size"`
	SHA256       string `bun:"sha256"`
	MD5          string `bun:"md5"`
	Remark       string `bun:"remark"`
	CreatedBy    int64  `bun:"created_by"`
	CreatedAt    int64  `bun:"created_at"`
}

// Push is a firmware_pushes row.
type Push struct {
	bun.BaseModel `bun:"table:firmware_pushes,alias:pu"`

	ID           int64  `bun:"id,pk,autoincrement"`
	PackageID    int64  `bun:"package_id"`
	Kind         int    `bun:"kind"`
	Manufacturer string `bun:"manufacturer"`
	Version      string `bun:"version"`
	GroupID      int64  `bun:"group_id"`
	UserID       int64  `bun:"user_id"`
	UserName     string `bun:"user_name"`
	Terminals    int    `bun:"terminals"`
	ExpiresAt    int64  `bun:"expires_at"`
	CreatedAt    int64  `bun:"created_at"`
}

// Job is a firmware_jobs row.
type Job struct {
	bun.BaseModel `bun:"table:firmware_jobs,alias:j"`

	ID         int64  `bun:"id,pk,autoincrement"`
	PushID     int64  `bun:"push_id"`
	PackageID  int64  `bun:"package_id"`
	TerminalID int64  `bun:"terminal_id"`
	GroupID    int64  `bun:"group_id"`
	Status     int    `bun:"status"`
	Acked      int    `bun:"acked"`
	Total      int    `bun:"total"`
	Attempts   int    `bun:"attempts"`
	Result     int    `bun:"result"`
	Reason     string `bun:"reason"`
	NextAt     int64  `bun:"next_at"`
	ExpiresAt  int64  `bun:"expires_at"`
	UpdatedAt  int64  `bun:"updated_at"`
}

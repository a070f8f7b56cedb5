package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
)

// Token lifetime: a token expires TokenTTL after its last use; the extension is written at most once
// per TouchInterval so that a busy console does not write on every request.
const (
	TokenTTL      = 24 * time.Hour
	TouchInterval = time.Minute
)

// tokenRow is a stored session token (only its SHA-256 hash is stored).
type tokenRow struct {
	bun.BaseModel `bun:"table:tokens"`

	Hash       string `bun:"hash,pk"`
	UserID     int64  `bun:"user_id"`
	CreatedAt  int64  `bun:"created_at"`
	LastUsedAt int64  `bun:"last_used_at"`
	ExpiresAt  int64  `bun:"expires_at"`
	RevokedAt  *int64 `bun:"revoked_at"`
}

// Tokens issues, checks and revokes session tokens.
type Tokens struct {
	db  *db.DB
	Now func() time.Time
}

// NewTokens returns the token store over d.
func NewTokens(d *db.DB) *Tokens { return &Tokens{db: d, Now: time.Now} }

// HashToken is the stored form of a raw token.
func HashToken(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// Issue creates a token for userID and returns it (32 random bytes, base64url).
func (t *Tokens) Issue(ctx context.Context, userID int64) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	raw := base64.RawURLEncoding.EncodeToString(b[:])
	now := t.Now().UnixMilli()
	row := &tokenRow{Hash: HashToken(raw), UserID: userID, CreatedAt: now, LastUsedAt: now,
		ExpiresAt: now + TokenTTL.Milliseconds()}
	if _, err := t.db.NewInsert().Model(row).Exec(ctx); err != nil {
		return "", err
	}
	return raw, nil
}

// Check returns the user of a valid token and its hash; ok is false for unknown, expired or revoked
// tokens. A valid token's expiry slides to now+TokenTTL (written at most once per TouchInterval).
func (t *Tokens) Check(ctx context.Context, raw string) (userID int64, hash string, ok bool, err error) {
	if raw == "" || len(raw) > 256 {
		return 0, "", false, nil
	}
	hash = HashToken(raw)
	row := new(tokenRow)
	err = t.db.NewSelect().Model(row).Where("hash = ?", hash).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, err
	}
	now := t.Now().UnixMilli()
	if row.RevokedAt != nil || row.ExpiresAt <= now {
		return 0, "", false, nil
	}
	if now-row.LastUsedAt >= TouchInterval.Milliseconds() {
		_, err = t.db.NewUpdate().Model((*tokenRow)(nil)).
			Set("last_used_at = ?", now).Set("expires_at = ?", now+TokenTTL.Milliseconds()).
			Where("hash = ?", hash).Where("revoked_at IS NULL").Exec(ctx)
		if err != nil {
			return 0, "", false, err
		}
	}
	return row.UserID, hash, true, nil
}

// RevokeHash revokes one token by its hash.
func (t *Tokens) RevokeHash(ctx context.Context, hash string) error {
	_, err := t.db.NewUpdate().Model((*tokenRow)(nil)).Set("revoked_at = ?", t.Now().UnixMilli()).
		Where("hash = ?", hash).Where("revoked_at IS NULL").Exec(ctx)
	return err
}

// RevokeUser revokes every token of userID, inside tx when given (bun.IDB: the DB or a transaction).
func (t *Tokens) RevokeUser(ctx context.Context, idb bun.IDB, userID int64) error {
	if idb == nil {
		idb = t.db
	}
	_, err := idb.NewUpdate().Model((*tokenRow)(nil)).Set("revoked_at = ?", t.Now().UnixMilli()).
		Where("user_id = ?", userID).Where("revoked_at IS NULL").Exec(ctx)
	return err
}

// PurgeExpired deletes tokens that expired or were revoked more than a day ago.
func (t *Tokens) PurgeExpired(ctx context.Context) (int64, error) {
	cut := t.Now().Add(-24 * time.Hour).UnixMilli()
	res, err := t.db.NewDelete().Model((*tokenRow)(nil)).
		Where("expires_at < ? OR (revoked_at IS NOT NULL AND revoked_at < ?)", cut, cut).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

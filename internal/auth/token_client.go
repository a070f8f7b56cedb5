package auth

import (
	"context"
	"unicode/utf8"
)

// Describe records where a token was issued to (the client address and its User-Agent), which the
// signed-in sessions list shows (access/system, D67).
func (t *Tokens) Describe(ctx context.Context, raw, ip, client string) error {
	if len(client) > 255 {
		client = client[:255]
		for !utf8.ValidString(client) {
			client = client[:len(client)-1]
		}
	}
	_, err := t.db.NewUpdate().Model((*tokenRow)(nil)).Set("ip = ?", ip).Set("client = ?", client).
		Where("hash = ?", HashToken(raw)).Exec(ctx)
	return err
}

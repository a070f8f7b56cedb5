// Package auth signs users in and out: password hashing (argon2id), opaque session tokens with a
// sliding expiry, login rate limiting, and the guard that turns a bearer token into a principal.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id parameters.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32
	Threads uint8
	KeyLen  uint32
	SaltLen int
}

// DefaultParams follow the OWASP recommendation for argon2id (19 MiB, 2 passes, 1 lane).
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16}

// hashParams are used for new hashes; tests may lower them with UseFastHashingForTests.
var hashParams atomic.Pointer[Params]

func init() { p := DefaultParams; hashParams.Store(&p) }

// UseFastHashingForTests lowers the cost of new hashes (the parameters are stored in each hash, so
// verification is unaffected). Tests only.
func UseFastHashingForTests() {
	hashParams.Store(&Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16})
}

// HashPassword returns the PHC string of password:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key> (base64 without padding).
func HashPassword(password string) (string, error) {
	return HashPasswordWith(password, *hashParams.Load())
}

// HashPasswordWith hashes with explicit parameters.
func HashPasswordWith(password string, p Params) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("auth: malformed password hash")

// VerifyPassword reports whether password matches the PHC string encoded (constant-time compare).
func VerifyPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return false, errBadHash
	}
	if p.Memory == 0 || p.Memory > 1<<22 || p.Time == 0 || p.Time > 64 || p.Threads == 0 {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 128 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is verified against when an account does not exist, so both paths cost the same.
var dummyHash, _ = HashPasswordWith("tankwatch-dummy-password", DefaultParams)

const pwAlphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// RandomPassword returns n random characters from an alphabet without look-alikes (0/O, 1/l/I),
// always containing a letter and a digit.
func RandomPassword(n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			k, err := rand.Int(rand.Reader, big.NewInt(int64(len(pwAlphabet))))
			if err != nil {
				panic(err) // crypto/rand never fails on supported platforms
			}
			b[i] = pwAlphabet[k.Int64()]
		}
		s := string(b)
		if strings.ContainsAny(s, "23456789") && strings.ContainsAny(s, "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ") {
			return s
		}
	}
}

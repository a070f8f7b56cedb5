// Package gateway is the JT/T 808 TCP gateway: one session per terminal connection that registers and
// authenticates terminals against the fleet registry, turns position reports, batches, control replies
// and tank pass-through into telemetry.Reports, hands them with the raw frames to the history writer and
// acknowledges a report only after the writer committed it (DESIGN §2). It also sends downlink commands
// and correlates the terminal's answers.
package gateway

import (
	"context"
	"errors"
	"time"

	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// Terminal is a registered terminal as the gateway needs it.
type Terminal struct {
	ID, CarID, GroupID int64 // CarID 0: bound to no car
	Phone              string
	DeviceID           string // the terminal ID its 0x0100 must carry; "" refuses every registration
	Plate, VIN         string // of the bound car; a 0x0100 must carry the plate (or, with plate colour 0, the VIN)
	AuthCode           string
	Protocol           int // 2011, 2013 or 2019 as registered (the header decides what is spoken)
}

// Registry looks terminals up by phone. Only enabled terminals are returned.
type Registry interface {
	Terminal(ctx context.Context, phone string) (Terminal, bool, error) // phone digits, leading zeros ignored
	SetAuthCode(ctx context.Context, terminalID int64, code string) error
}

// Sink takes reports and raw frames for durable storage (telemetry.Writer implements it). Submit blocks
// while the sink's queue is full; done is called once everything of the submission is committed (nil) or
// will not be (error).
type Sink interface {
	Submit(ctx context.Context, reports []telemetry.Report, frames []telemetry.Frame, done func(error)) error
}

// trySink is a Sink that can refuse instead of waiting (telemetry.Writer): with one, the reactor's loop
// serves reports itself (session.serveInline). TrySubmit returns telemetry.ErrQueueFull, and keeps done,
// when the sink has no room.
type trySink interface {
	TrySubmit(reports []telemetry.Report, frames []telemetry.Frame, done func(error)) error
}

// CommandLog records downlink commands (telemetry.Commands implements it).
type CommandLog interface {
	Start(ctx context.Context, c *telemetry.Command) error
	Finish(ctx context.Context, c *telemetry.Command) error
}

// PassDecoder decodes 0x0900 pass-through content of types other than tank.PassTank (the sensor
// registry implements it). content is a copy the decoder may keep.
type PassDecoder interface {
	PassThrough(typ byte, content []byte) (tank.Extract, error)
}

// Config tunes the gateway; zero fields take the defaults shown.
type Config struct {
	IdleTimeout    time.Duration // 5m: a terminal sending no valid frame this long is disconnected
	CommandTimeout time.Duration // 15s: how long Send waits for the terminal's answer
	MaxConns       int           // DefaultMaxConns(open-file limit): connections beyond this are closed at accept

	HandshakeTimeout  time.Duration    // 30s: a new connection must send a valid frame within this
	WriteTimeout      time.Duration    // 10s: a write that takes longer drops the session
	MaxBadFrames      int              // 64: malformed frames in a row that close a session
	ReassemblyTimeout time.Duration    // 10s: quiet time before missing sub-packages are re-requested (0x8003)
	MaxOutbox         int              // 64 KiB: unsent bytes per session before it is dropped as too slow
	Now               func() time.Time // clock of Received, reassembly, liveness and the failure limit; nil = time.Now

	// Identity (docs/DECISIONS.md D25).
	AuthTimeout     time.Duration // 30s: a connection not authenticated this long after it opened is closed
	HeartbeatWindow time.Duration // 90s: a session heard from within this is live; no other connection may take its terminal over
	FailLimit       int           // 30: failed registrations and authentications per address per FailWindow before it is blocked
	FailWindow      time.Duration // 1m
	FailBlock       time.Duration // 5m: how long a blocked address's registrations and authentications are refused
	ConflictEvery   time.Duration // 10m: at most one identity-conflict alarm per terminal this often (every attempt is logged)
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.IdleTimeout, 5*time.Minute)
	def(&c.CommandTimeout, 15*time.Second)
	def(&c.HandshakeTimeout, 30*time.Second)
	def(&c.WriteTimeout, 10*time.Second)
	def(&c.ReassemblyTimeout, 10*time.Second)
	def(&c.AuthTimeout, 30*time.Second)
	def(&c.HeartbeatWindow, 90*time.Second)
	def(&c.FailWindow, time.Minute)
	def(&c.FailBlock, 5*time.Minute)
	def(&c.ConflictEvery, 10*time.Minute)
	if c.FailLimit <= 0 {
		c.FailLimit = 30
	}
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns(OpenFileLimit())
	}
	if c.MaxBadFrames <= 0 {
		c.MaxBadFrames = 64
	}
	if c.MaxOutbox <= 0 {
		c.MaxOutbox = 64 << 10
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Errors of Send; the command's Status tells the same.
var (
	ErrOffline  = errors.New("gateway: terminal offline")
	ErrTimeout  = errors.New("gateway: terminal did not answer in time")
	ErrRejected = errors.New("gateway: terminal refused the command")
)

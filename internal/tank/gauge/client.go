package gauge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

// Client asks one gauge (host:port) one command per TCP connection: connect, send the request, read
// until ETX, close. Gauges (and the serial-to-TCP adapters in front of them) serve one connection at a
// time; the collector never opens two to the same gauge.
type Client struct {
	Addr        string
	DialTimeout time.Duration // default 3 s
	ReadTimeout time.Duration // for the whole answer after the request; default 5 s
	Fields      FieldMap      // nil: DefaultFields
	Loc         *time.Location
	// Dial replaces net.Dialer (tests); nil: TCP.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// ErrTimeout is a gauge that accepted the connection but did not finish its answer in time.
var ErrTimeout = errors.New("gauge: no complete answer within the read timeout")

// Ask sends request fn/tank and returns the raw answer (SOH … ETX). Network failures and timeouts are
// returned as they are; a partial answer at the timeout is ErrTimeout wrapped with the byte count.
func (c *Client) Ask(ctx context.Context, fn string, tank int) ([]byte, error) {
	dt, rt := c.DialTimeout, c.ReadTimeout
	if dt <= 0 {
		dt = 3 * time.Second
	}
	if rt <= 0 {
		rt = 5 * time.Second
	}
	dctx, cancel := context.WithTimeout(ctx, dt)
	defer cancel()
	dial := c.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	conn, err := dial(dctx, "tcp", c.Addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	deadline := time.Now().Add(rt)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	if _, err := conn.Write(Request(fn, tank)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	chunk := make([]byte, 4096)
	for {
		n, err := conn.Read(chunk)
		buf.Write(chunk[:n])
		if i := bytes.IndexByte(buf.Bytes(), ETX); i >= 0 {
			return buf.Bytes()[:i+1], nil
		}
		if buf.Len() > MaxAnswer {
			return nil, perr(KindGarbage, "answer longer than %d bytes without ETX", MaxAnswer)
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				if buf.Len() > 0 {
					return nil, fmt.Errorf("%w (%d bytes, then silence)", ErrTimeout, buf.Len())
				}
				return nil, ErrTimeout
			}
			if buf.Len() > 0 {
				return nil, perr(KindTruncated, "connection closed after %d bytes: %v", buf.Len(), err)
			}
			return nil, err
		}
	}
}

func (c *Client) loc() *time.Location {
	if c.Loc == nil {
		return time.Local
	}
	return c.Loc
}

// Inventory asks function 201 for all tanks.
func (c *Client) Inventory(ctx context.Context) (time.Time, []Inventory, error) {
	b, err := c.Ask(ctx, FuncInventory, 0)
	if err != nil {
		return time.Time{}, nil, err
	}
	return ParseInventory(b, 0, c.Fields, c.loc())
}

// Deliveries asks function 202 for all tanks.
func (c *Client) Deliveries(ctx context.Context) (time.Time, []Delivery, error) {
	b, err := c.Ask(ctx, FuncDeliveries, 0)
	if err != nil {
		return time.Time{}, nil, err
	}
	return ParseDeliveries(b, 0, c.loc())
}

// Alarms asks function 205 for all tanks.
func (c *Client) Alarms(ctx context.Context) (time.Time, []TankAlarms, error) {
	b, err := c.Ask(ctx, FuncAlarms, 0)
	if err != nil {
		return time.Time{}, nil, err
	}
	return ParseAlarms(b, 0, c.loc())
}

// LeakTests asks function 203 for all tanks.
func (c *Client) LeakTests(ctx context.Context) (time.Time, []LeakTest, error) {
	b, err := c.Ask(ctx, FuncLeakTests, 0)
	if err != nil {
		return time.Time{}, nil, err
	}
	return ParseLeakTests(b, 0, c.loc())
}

package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// IdentityConflict is an attempt, refused by the JT/T 808 gateway, to pass for a car's terminal from
// another connection while the terminal's own session went on (gateway.Conflict, D25).
type IdentityConflict struct {
	CarID, TerminalID int64
	Peer              string // the other connection's address
	MsgID             uint16 // 0x0100 registration or 0x0102 authentication
	Attempts          int    // refused attempts this alarm stands for
	At                time.Time
}

// RaiseIdentityConflict stores an identity-conflict alarm for the car (an instant alarm: the attempt
// is over when it is refused) and pushes it, like the engine's own alarms, to the users who see the
// car's group and the alarm list. It is raised whatever the car's control mode watches: it is about
// the platform's trust in the car's reports, not a driving rule; the type's enabled flag still
// applies. The gateway limits how often (--jt808-conflict-alarm-every). Safe to call from any goroutine.
func (e *Engine) RaiseIdentityConflict(ctx context.Context, c IdentityConflict) (*Record, error) {
	car, ok := e.car(c.CarID)
	if !ok {
		if err := e.reload(ctx); err != nil {
			return nil, err
		}
		if car, ok = e.car(c.CarID); !ok {
			return nil, fmt.Errorf("alarm: identity conflict of car %d: no such car", c.CarID)
		}
	}
	svc := e.d.Service
	t, ok := svc.typeOf(CodeIdentityConflict)
	if !ok || !t.Enabled {
		return nil, nil
	}
	at := c.At.UnixMilli()
	detail, _ := json.Marshal([]string{c.Peer, fmt.Sprintf("0x%04x", c.MsgID), strconv.Itoa(max(c.Attempts, 1))})
	rec := &Record{CarID: car.ID, TerminalID: c.TerminalID, GroupID: car.GroupID, GroupPath: car.GroupPath, Plate: car.Plate,
		TypeCode: CodeIdentityConflict, Level: t.Level, StartAt: at, EndAt: &at, Detail: string(detail)}
	if e.d.Live != nil {
		if cs, ok := e.d.Live.Car(car.ID); ok && cs.Reported {
			rec.Lat, rec.Lon = cs.Lat, cs.Lon
		}
	}
	if err := svc.insert(ctx, svc.db, rec); err != nil {
		return nil, fmt.Errorf("alarm: identity conflict of car %d: %w", c.CarID, err)
	}
	e.raised.Add(1)
	if t.Push {
		e.push(ctx, &car, rec)
	}
	return rec, nil
}

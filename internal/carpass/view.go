package carpass

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// maxReason bounds the optional reason a dispatcher gives for a reveal.
const maxReason = 200

// ViewInput is POST /base-info-app/carPassword/view.
type ViewInput struct {
	CarID  int64  `json:"carId"`
	Reason string `json:"reason"`
}

// Revealed is a car's password as View gives it.
type Revealed struct {
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	Password  string     `json:"password"`
	SyncState string     `json:"syncState"`
	SetAt     httpx.Time `json:"setAt"`
	ViewedAt  httpx.Time `json:"viewedAt"`
}

// viewing is a row of password_views.
type viewing struct {
	bun.BaseModel `bun:"table:password_views,alias:pv"`

	ID        int64  `bun:"id,pk,autoincrement"`
	CarID     int64  `bun:"car_id"`
	Plate     string `bun:"plate"`
	GroupID   int64  `bun:"group_id"`
	GroupPath string `bun:"group_path"`
	UserID    int64  `bun:"user_id"`
	UserName  string `bun:"user_name"`
	ViewedAt  int64  `bun:"viewed_at"`
	ClientIP  string `bun:"client_ip"`
	Reason    string `bun:"reason"`
}

func (s *Service) load(ctx context.Context, carID int64) (*password, error) {
	return loadIn(ctx, s.db, carID)
}

func loadIn(ctx context.Context, idb bun.IDB, carID int64) (*password, error) {
	row := new(password)
	err := idb.NewSelect().Model(row).Where("cp.car_id = ?", carID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.Biz("carPassword.notSet")
	}
	if err != nil {
		return nil, err
	}
	return row, nil
}

// View reveals a car's password to the caller and records who saw it, when and from where, in the
// same transaction: a reveal without its record cannot happen (if the record is not written the
// password is not returned). A car without a password records nothing.
func (s *Service) View(r *http.Request, in ViewInput) (*Revealed, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.CarID <= 0 {
		return nil, httpx.Required("carId")
	}
	reason := strings.TrimSpace(in.Reason)
	if len([]rune(reason)) > maxReason {
		return nil, httpx.Biz("field.maxLen", httpx.Field("carPassword.reason"), maxReason)
	}
	car, err := s.fleet.ScopedCar(ctx, p, in.CarID)
	if err != nil {
		return nil, err
	}
	now := s.Now().UnixMilli()
	var out *Revealed
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		row, err := loadIn(ctx, tx, car.ID)
		if err != nil {
			return err
		}
		rec := &viewing{CarID: car.ID, Plate: car.Plate, GroupID: car.GroupID, GroupPath: car.GroupPath, UserID: p.UserID,
			UserName: p.UserName, ViewedAt: now, ClientIP: httpx.ClientIP(r), Reason: reason}
		if _, err := tx.NewInsert().Model(rec).Returning("id").Exec(ctx); err != nil {
			return err
		}
		out = &Revealed{CarID: car.ID, Plate: car.Plate, Password: row.Password, SyncState: row.SyncState,
			SetAt: httpx.Time(row.SetAt), ViewedAt: httpx.Time(now)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

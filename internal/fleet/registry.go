package fleet

import (
	"context"
	"sync"
)

// LiveSource lists every car with what the engines need of it (Service.LiveCars).
type LiveSource interface {
	LiveCars(ctx context.Context) ([]LiveCar, error)
}

// Registry is a snapshot of the cars by id that an engine judges against: reloaded as a whole when a
// report names a car it does not know. Safe for concurrent use.
type Registry struct {
	mu   sync.RWMutex
	cars map[int64]LiveCar
}

// Reload replaces the snapshot with src's cars.
func (r *Registry) Reload(ctx context.Context, src LiveSource) error {
	cars, err := src.LiveCars(ctx)
	if err != nil {
		return err
	}
	r.Set(cars)
	return nil
}

// Set replaces the snapshot with cars.
func (r *Registry) Set(cars []LiveCar) {
	m := make(map[int64]LiveCar, len(cars))
	for _, c := range cars {
		m[c.ID] = c
	}
	r.mu.Lock()
	r.cars = m
	r.mu.Unlock()
}

// Car is the car with id in the snapshot.
func (r *Registry) Car(id int64) (LiveCar, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, ok := r.cars[id]
	return c, ok
}

// All is a copy of every car of the snapshot.
func (r *Registry) All() []LiveCar {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]LiveCar, 0, len(r.cars))
	for _, c := range r.cars {
		out = append(out, c)
	}
	return out
}

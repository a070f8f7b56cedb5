package geo

import (
	"container/list"
	"math"
	"sync"
)

// cacheKey rounds a point to a grid of 0.0005° (~55 m of latitude, less of longitude), so a parked
// or slowly moving vehicle costs one online lookup.
type cacheKey struct{ lat, lng int32 }

func keyOf(lng, lat float64) cacheKey {
	return cacheKey{lat: int32(math.Round(lat / 0.0005)), lng: int32(math.Round(lng / 0.0005))}
}

// lru is a bounded least-recently-used map of online answers.
type lru struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recent; values are *lruEntry
	items map[cacheKey]*list.Element
}

type lruEntry struct {
	key  cacheKey
	addr string
}

func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), items: make(map[cacheKey]*list.Element, max)}
}

func (c *lru) get(k cacheKey) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return "", false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).addr, true
}

func (c *lru) put(k cacheKey, addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		e.Value.(*lruEntry).addr = addr
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry{key: k, addr: addr})
	if c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*lruEntry).key)
	}
}

func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

package geo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// online returns Gaode's address for the point, "" when the provider failed (the caller falls back
// to the table), or an error only when ctx itself ended.
func (s *Service) online(ctx context.Context, lng, lat float64) (string, error) {
	k := keyOf(lng, lat)
	if addr, ok := s.cache.get(k); ok {
		return addr, nil
	}
	now := s.Now()
	s.mu.Lock()
	down := now.Before(s.downUntil)
	s.mu.Unlock()
	if down {
		return "", nil
	}
	addr, err := s.regeo(ctx, lng, lat)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		s.failed(now, err)
		return "", nil
	}
	s.cache.put(k, addr)
	return addr, nil
}

// failed starts the back-off and logs the failure unless one was logged within logEvery.
func (s *Service) failed(now time.Time, err error) {
	s.mu.Lock()
	s.downUntil = now.Add(retryAfter)
	if !s.lastLog.IsZero() && now.Sub(s.lastLog) < logEvery {
		s.suppressed++
		s.mu.Unlock()
		return
	}
	n := s.suppressed
	s.lastLog, s.suppressed = now, 0
	s.mu.Unlock()
	s.Log.Warn("online reverse geocoding failed; answering from the offline table", "err", err,
		"retry_in", retryAfter, "failures_not_logged", n)
}

// regeo calls Gaode's reverse geocoding for a WGS-84 point.
func (s *Service) regeo(ctx context.Context, lng, lat float64) (string, error) {
	glng, glat := WGS84ToGCJ02(lng, lat)
	q := url.Values{}
	q.Set("key", s.amapKey())
	q.Set("location", strconv.FormatFloat(glng, 'f', 6, 64)+","+strconv.FormatFloat(glat, 'f', 6, 64))
	q.Set("output", "JSON")
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.AMapURL+"?"+q.Encode(), nil)
	if err != nil {
		return "", fmt.Errorf("amap: bad URL: %w", redact(err))
	}
	res, err := s.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("amap: %w", redact(err))
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("amap: HTTP %d", res.StatusCode)
	}
	var body struct {
		Status    string `json:"status"`
		Info      string `json:"info"`
		Infocode  string `json:"infocode"`
		Regeocode struct {
			FormattedAddress json.RawMessage `json:"formatted_address"`
		} `json:"regeocode"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&body); err != nil {
		return "", fmt.Errorf("amap: unreadable answer: %w", err)
	}
	if body.Status != "1" {
		return "", fmt.Errorf("amap: %s (infocode %s)", body.Info, body.Infocode)
	}
	// Gaode sends [] instead of a string when it knows no address (open sea, abroad).
	var addr string
	if err := json.Unmarshal(body.Regeocode.FormattedAddress, &addr); err != nil || addr == "" {
		return "", errors.New("amap: no address for the point")
	}
	return addr, nil
}

// redact drops the request URL (it carries the key) from transport errors.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

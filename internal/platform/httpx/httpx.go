// Package httpx holds the HTTP conventions shared by every domain: the response envelope, errors in
// the caller's language, JSON decoding with limits, paging, times, the signed-in principal, the route
// table and middleware.
package httpx

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"tankwatch/internal/platform/i18n"
)

// Envelope is the body of every JSON response.
type Envelope struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Success int    `json:"success"`
	Data    any    `json:"data"`
}

// Error is a failure with an HTTP status and a catalogue key; its text is chosen by Accept-Language.
type Error struct {
	Status int
	Key    string
	Args   []any
	// Data, when set, is sent as the failure's data: a stable reason the console can act on whatever
	// the language of the message (the video calls' {"reason": "offline"}, issue 17).
	Data any
}

func (e *Error) Error() string { return i18n.T(i18n.EnUS, e.Key, e.Args...) }

// Biz is a business failure: HTTP 200, code 0.
func Biz(key string, args ...any) *Error { return &Error{Status: http.StatusOK, Key: key, Args: args} }

// Required is the "<field> cannot be empty" failure.
func Required(field string) *Error { return Biz("field.required", i18n.Field(field)) }

// Invalid is the "<field> is not valid" failure.
func Invalid(field string) *Error { return Biz("field.invalid", i18n.Field(field)) }

// BadRequest is HTTP 400, code 0.
func BadRequest(key string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Key: key, Args: args}
}

// ErrForbidden is returned when the caller lacks the permission code.
var ErrForbidden = &Error{Status: http.StatusForbidden, Key: "forbidden"}

// ErrScope is returned when a record lies outside the caller's data scope.
var ErrScope = &Error{Status: http.StatusForbidden, Key: "scope"}

// ErrPlatformOnly is returned when a subsidiary's user (or a platform user without the setting's
// code) tries to change a platform-wide setting (D29).
var ErrPlatformOnly = &Error{Status: http.StatusForbidden, Key: "platformOnly"}

// ErrNotFound is a business failure for a missing record (inside scope).
var ErrNotFound = Biz("notFound")

// Lang returns the caller's language.
func Lang(r *http.Request) i18n.Lang { return i18n.FromAcceptLanguage(r.Header.Get("Accept-Language")) }

// T translates key for the caller.
func T(r *http.Request, key string, args ...any) string { return i18n.T(Lang(r), key, args...) }

// WriteJSON writes v as JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// OK writes a success envelope.
func OK(w http.ResponseWriter, r *http.Request, data any) { OKMsg(w, r, "ok", data) }

// OKMsg writes a success envelope with the message of key.
func OKMsg(w http.ResponseWriter, r *http.Request, key string, data any) {
	WriteJSON(w, http.StatusOK, Envelope{Code: 1, Success: 1, Message: T(r, key), Data: data})
}

// Fail writes err: an *Error as its status and translated message, anything else as a logged 500.
func Fail(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		e = &Error{Status: http.StatusInternalServerError, Key: "internal"}
	}
	WriteJSON(w, e.Status, Envelope{Code: 0, Success: 0, Message: T(r, e.Key, e.Args...), Data: e.Data})
}

// Respond writes data on success, or err.
func Respond(w http.ResponseWriter, r *http.Request, data any, err error) {
	if err != nil {
		Fail(w, r, err)
		return
	}
	OK(w, r, data)
}

// Unauthorized writes the 401 invalid_token answer.
func Unauthorized(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	WriteJSON(w, http.StatusUnauthorized, map[string]string{
		"error":             "invalid_token",
		"error_description": T(r, "token.invalid"),
	})
}

// BearerToken returns the token of the Authorization header, or "".
func BearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

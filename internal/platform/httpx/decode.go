package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBody is the largest accepted request body.
const MaxBody = 1 << 20

// Decode reads the JSON body into dst. An empty body decodes as {}. Over 1 MiB → 413, malformed JSON or
// wrong types → 400 naming the problem.
func Decode(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Key: "body.tooLarge"}
		}
		return BadRequest("body.malformed", err.Error())
	}
	return DecodeBytes(body, dst)
}

// DecodeBytes decodes a JSON document with Decode's error mapping.
func DecodeBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if err := checkText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		var fe *FieldError
		switch {
		case errors.As(err, &te):
			field := te.Field
			if field == "" {
				field = "(body)"
			}
			return BadRequest("body.type", field, jsonKind(te.Type.Kind().String()))
		case errors.As(err, &fe):
			return fe.Err
		case errors.As(err, &se):
			return BadRequest("body.malformed", "offset "+strconv.FormatInt(se.Offset, 10)+": "+se.Error())
		case errors.Is(err, io.ErrUnexpectedEOF):
			return BadRequest("body.malformed", "unexpected end of input")
		default:
			return BadRequest("body.malformed", err.Error())
		}
	}
	if dec.More() {
		return BadRequest("body.malformed", "trailing data after the JSON value")
	}
	return nil
}

// FieldError lets a custom UnmarshalJSON report a translated error.
type FieldError struct{ Err *Error }

func (e *FieldError) Error() string { return e.Err.Error() }

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "number"
	case k == "slice" || k == "array":
		return "array"
	case k == "map" || k == "struct":
		return "object"
	case k == "bool":
		return "boolean"
	}
	return k
}

// QueryID reads a required positive integer query parameter.
func QueryID(r *http.Request, name string) (int64, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return 0, Biz("param.missing", name)
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, Biz("param.invalid", name)
	}
	return id, nil
}

// PathID reads a positive integer path value.
func PathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, Biz("param.invalid", name)
	}
	return id, nil
}

// checkText refuses a body that is not valid UTF-8 or holds a NUL, raw or escaped as \u0000:
// encoding/json would quietly replace the bad bytes or keep the NUL, and PostgreSQL refuses both in
// text columns, so the request would end as a 500 instead of a 400 that says what is wrong.
func checkText(body []byte) error {
	if !utf8.Valid(body) {
		return BadRequest("body.encoding")
	}
	if bytes.IndexByte(body, 0) >= 0 {
		return BadRequest("body.nul")
	}
	// \u0000 inside a string: a backslash that is itself escaped (\\u0000) is text, not an escape
	for i := 0; i+5 < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		if body[i+1] == 'u' && string(body[i+2:i+6]) == "0000" {
			return BadRequest("body.nul")
		}
		i++ // skip the escaped character
	}
	return nil
}

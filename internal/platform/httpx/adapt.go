package httpx

import "net/http"

// JSON adapts a service call taking a decoded JSON body into a handler answering with the envelope.
func JSON[T any](fn func(r *http.Request, in T) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in T
		if err := Decode(w, r, &in); err != nil {
			Fail(w, r, err)
			return
		}
		data, err := fn(r, in)
		Respond(w, r, data, err)
	}
}

// ByID adapts a service call taking the ?<name>= query parameter (a positive id).
func ByID(name string, fn func(r *http.Request, id int64) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := QueryID(r, name)
		if err != nil {
			Fail(w, r, err)
			return
		}
		data, err := fn(r, id)
		Respond(w, r, data, err)
	}
}

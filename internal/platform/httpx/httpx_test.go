package httpx

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type sample struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	IDs   []int  `json:"ids"`
	When  Time   `json:"when"`
}

func TestDecode(t *testing.T) {
	cases := []struct {
		body   string
		status int
		msg    string
	}{
		{``, 0, ""},
		{`{"name":"a","count":2,"ids":[1],"when":"2026-01-02 03:04:05"}`, 0, ""},
		{`{"name":`, 400, "not valid JSON"},
		{`{"name":1}`, 400, "Field name has the wrong type, expected string"},
		{`{"count":"x"}`, 400, "Field count has the wrong type, expected number"},
		{`{"ids":{}}`, 400, "Field ids has the wrong type, expected array"},
		{`{"when":"yesterday"}`, 400, "YYYY-MM-DD HH:mm:ss"},
		{`{} {}`, 400, "trailing data"},
		{`{"name":"` + strings.Repeat("x", MaxBody) + `"}`, 413, "larger than 1 MiB"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		var v sample
		err := Decode(httptest.NewRecorder(), r, &v)
		if c.status == 0 {
			if err != nil {
				t.Errorf("%.40q: %v", c.body, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Status != c.status || !strings.Contains(e.Error(), c.msg) {
			t.Errorf("%.40q: got %v, want %d %q", c.body, err, c.status, c.msg)
		}
	}
}

func TestFailWritesEnvelopeInCallersLanguage(t *testing.T) {
	for lang, want := range map[string]string{"": "账号不能为空", "zh-TW": "帳號不能為空", "en-US": "Account cannot be empty"} {
		r := httptest.NewRequest("POST", "/", nil)
		r.Header.Set("Accept-Language", lang)
		w := httptest.NewRecorder()
		Fail(w, r, Required("account"))
		var env Envelope
		if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || w.Code != 200 || env.Code != 0 || env.Message != want {
			t.Errorf("%q: %d %s", lang, w.Code, w.Body)
		}
	}
	w := httptest.NewRecorder()
	Fail(w, httptest.NewRequest("GET", "/", nil), errors.New("boom"))
	if w.Code != 500 || strings.Contains(w.Body.String(), "boom") {
		t.Errorf("internal error leaked: %d %s", w.Code, w.Body)
	}
}

func TestPaging(t *testing.T) {
	p := PageReq{}
	if err := p.Normalize(); err != nil || p.PageNum != 1 || p.PageSize != 10 || p.Offset() != 0 {
		t.Fatalf("defaults: %+v %v", p, err)
	}
	p = PageReq{PageNum: 3, PageSize: 20}
	if err := p.Normalize(); err != nil || p.Offset() != 40 {
		t.Fatalf("offset: %+v", p)
	}
	for _, bad := range []PageReq{{PageSize: 501}, {PageSize: -1}, {PageNum: -2}, {SortOrder: "sideways"}} {
		if err := bad.Normalize(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	cols := map[string]string{"name": "u.name"}
	if o, err := (PageReq{SortField: "name", SortOrder: "descend"}).OrderBy(cols, "id"); err != nil || o != "u.name DESC" {
		t.Errorf("order: %q %v", o, err)
	}
	if _, err := (PageReq{SortField: "password_hash"}).OrderBy(cols, "id"); err == nil {
		t.Error("unknown sort field accepted")
	}
}

func TestTimeJSON(t *testing.T) {
	tm := TimeOf(time.Date(2026, 1, 2, 0, 4, 5, 0, time.UTC))
	b, _ := json.Marshal(tm)
	if string(b) != `"2026-01-02 08:04:05"` {
		t.Fatalf("marshal: %s", b)
	}
	var back Time
	if err := json.Unmarshal(b, &back); err != nil || back != tm {
		t.Fatalf("round trip: %v %v", back, err)
	}
	if b, _ := json.Marshal(Time(0)); string(b) != "null" {
		t.Fatalf("zero: %s", b)
	}
}

func TestPrincipalScope(t *testing.T) {
	p := &Principal{GroupPath: "/1/3/"}
	for path, want := range map[string]bool{"/1/3/": true, "/1/3/7/": true, "/1/": false, "/1/31/": false, "/1/2/": false} {
		if p.InScope(path) != want {
			t.Errorf("%s: %v", path, !want)
		}
	}
	var none *Principal
	if none.InScope("/1/") || none.Has("01") {
		t.Error("nil principal has scope")
	}
}

func TestHandleRefusesWithoutToken(t *testing.T) {
	h := Handle(guardFunc(func(*http.Request) (*Principal, error) { return nil, nil }),
		Route{Method: "GET", Path: "/x", Access: SignedIn, Handler: func(http.ResponseWriter, *http.Request) { t.Fatal("handler ran") }})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/x", nil))
	if w.Code != 401 || !strings.Contains(w.Body.String(), `"invalid_token"`) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

type guardFunc func(*http.Request) (*Principal, error)

func (g guardFunc) Authenticate(r *http.Request) (*Principal, error) { return g(r) }

package chatpb

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"google.golang.org/protobuf/proto"
)

// The vectors are shared with the console (web/src/proto/chat_vectors.test.ts): both sides must write
// the same bytes and read past fields they do not know.
type vector struct {
	Name   string            `json:"name"`
	Fields map[string]string `json:"fields"`
	Hex    string            `json:"hex"`
}

func load(t *testing.T) (enc, dec []vector) {
	b, err := os.ReadFile("../testdata/chat_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Encode, Decode []vector }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Encode, v.Decode
}

func fromFields(t *testing.T, f map[string]string) *ChatMessage {
	num := func(k string) int64 {
		if f[k] == "" {
			return 0
		}
		n, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return &ChatMessage{Id: num("id"), Action: f["action"], Content: f["content"], Sender: f["sender"],
		Receiver: f["receiver"], Extra: f["extra"], Title: f["title"], Format: f["format"], Timestamp: num("timestamp")}
}

func TestVectors(t *testing.T) {
	enc, dec := load(t)
	for _, v := range enc {
		want := fromFields(t, v.Fields)
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(b); got != v.Hex {
			t.Errorf("%s: encoded %s, want %s", v.Name, got, v.Hex)
		}
	}
	for _, v := range append(enc, dec...) {
		b, _ := hex.DecodeString(v.Hex)
		var got ChatMessage
		if err := proto.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		got.ProtoReflect().SetUnknown(nil)
		if want := fromFields(t, v.Fields); !proto.Equal(&got, want) {
			t.Errorf("%s: decoded %v, want %v", v.Name, &got, want)
		}
	}
}

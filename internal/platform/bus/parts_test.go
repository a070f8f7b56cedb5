package bus

import (
	"bytes"
	"testing"
)

func TestSplitParts(t *testing.T) {
	for _, tc := range []struct {
		n, size int
		want    []int
	}{
		{0, 4, []int{0}},
		{3, 4, []int{3}},
		{4, 4, []int{4}},
		{5, 4, []int{4, 1}},
		{12, 4, []int{4, 4, 4}},
	} {
		parts := splitParts(make([]byte, tc.n), tc.size)
		var got []int
		for _, p := range parts {
			got = append(got, len(p))
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%d/%d: %v, want %v", tc.n, tc.size, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("%d/%d: %v, want %v", tc.n, tc.size, got, tc.want)
			}
		}
	}
}

func TestAssembler(t *testing.T) {
	type part struct{ h, d string }
	for _, tc := range []struct {
		name  string
		parts []part
		want  []string // the messages made whole, in order
	}{
		{"in order", []part{{"a 0/3", "ab"}, {"a 1/3", "cd"}, {"a 2/3", "e"}}, []string{"abcde"}},
		{"one part", []part{{"a 0/1", "ab"}}, []string{"ab"}},
		{"two messages", []part{{"a 0/2", "x"}, {"a 1/2", "y"}, {"b 0/2", "z"}, {"b 1/2", "w"}}, []string{"xy", "zw"}},
		{"a part lost", []part{{"a 0/3", "ab"}, {"a 2/3", "e"}}, nil},
		{"a part lost, the next message whole", []part{{"a 0/3", "ab"}, {"a 2/3", "e"}, {"b 0/2", "z"}, {"b 1/2", "w"}}, []string{"zw"}},
		{"another message's part", []part{{"a 0/2", "x"}, {"b 1/2", "y"}}, nil},
		{"a first part starts again", []part{{"a 0/2", "x"}, {"b 0/2", "z"}, {"b 1/2", "w"}}, []string{"zw"}},
		{"a count that changes", []part{{"a 0/2", "x"}, {"a 1/3", "y"}}, nil},
		{"malformed", []part{{"a", "x"}, {"a 0", "x"}, {"a x/2", "x"}, {"a 2/2", "x"}, {"a 0/0", "x"}, {"a 0/999", "x"}, {"a -1/2", "x"}}, nil},
		{"the last part again", []part{{"a 0/2", "x"}, {"a 1/2", "y"}, {"a 1/2", "y"}}, []string{"xy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a assembler
			var got []string
			for _, p := range tc.parts {
				if whole, ok := a.add(p.h, []byte(p.d)); ok {
					got = append(got, string(whole))
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
			}
		})
	}
	// the whole message is the listener's to keep: the next message's parts must not overwrite it
	var a assembler
	a.add("a 0/2", []byte("ab"))
	first, _ := a.add("a 1/2", []byte("cd"))
	a.add("b 0/2", []byte("xy"))
	a.add("b 1/2", []byte("zw"))
	if !bytes.Equal(first, []byte("abcd")) {
		t.Fatalf("first message overwritten: %q", first)
	}
}

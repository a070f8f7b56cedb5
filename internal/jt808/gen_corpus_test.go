package jt808

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestGenCorpus writes the hand-written vectors as seed corpus files; run with
// JT808_GEN_CORPUS=1 after changing the vectors.
func TestGenCorpus(t *testing.T) {
	if os.Getenv("JT808_GEN_CORPUS") == "" {
		t.Skip("set JT808_GEN_CORPUS=1 to regenerate testdata/fuzz seeds")
	}
	write := func(fuzz, name string, vals ...any) {
		s := "go test fuzz v1\n"
		for _, v := range vals {
			switch v := v.(type) {
			case []byte:
				s += "[]byte(" + strconv.Quote(string(v)) + ")\n"
			case int:
				s += fmt.Sprintf("int(%d)\n", v)
			case bool:
				s += fmt.Sprintf("bool(%v)\n", v)
			case uint8:
				s += fmt.Sprintf("byte(%q)\n", rune(v))
			}
		}
		dir := filepath.Join("testdata", "fuzz", fuzz)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	frames := map[string]string{
		"heartbeat2013": "7e 0002 0000 013800138000 0001 a9 7e",
		"reply_escaped": "7e 8001 0005 013800138000 002c 007d02 0200 00 7d02 7e",
		"heartbeat2019": "7e 0002 4000 01 00000000013800138000 0001 e8 7e",
		"subpkg2013":    "7e 0900 2002 013800138000 0005 0002 0001 41 7d01 bb 7e",
		"subpkg2019":    "7e 0900 6002 01 00000000013800138000 0005 0002 0002 41 7d02 fa 7e",
	}
	for name, h := range frames {
		write("FuzzFrame", name, hx(t, h))
		write("FuzzSplitter", name, append([]byte("junk"), hx(t, h+h[2:])...), 64)
	}
	write("FuzzLocation", "five_items", hx(t, locBody5))
	write("FuzzLocation", "south_west", hx(t, locBaseSW))
	write("FuzzLocation", "last_item_cut", hx(t, locBaseSW+"30 01 1f e1 0b 01 02 0505"))
	write("FuzzLocation", "last_header_cut", hx(t, locBaseSW+"30 01 1f 31"))
	for i, tc := range messageCases() {
		body := hx(t, tc.body)
		write("FuzzMessages", fmt.Sprintf("case%02d", i), uint8(i), body, tc.v == V2019)
		for j, cut := range cutSeeds(tc.want) {
			write("FuzzMessages", fmt.Sprintf("case%02d_cut%d", i, j), uint8(i), hx(t, cut), tc.v == V2019)
		}
		if _, ok := tc.want.(*Register); ok {
			write("FuzzRegister", fmt.Sprintf("case%02d", i), body, tc.v == V2019)
		}
	}
}

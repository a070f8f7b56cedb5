package sim

import (
	"encoding/hex"
	"strings"
	"testing"
)

func TestSPSFrameRate(t *testing.T) {
	// the fixture's SPS (ffmpeg/x264, baseline 640×360): VUI timing num_units_in_tick 1, time_scale 50
	const clip = "6742c01ed900a02ff97011000003000100000300320f162e48"
	for _, tc := range []struct {
		name string
		sps  string
		want float64 // 0: an error
	}{
		{"the clip, 25 fps", clip, 25},
		{"time_scale 60, 30 fps", strings.Replace(clip, "0300320f", "03003c0f", 1), 30},
		{"time_scale 0", strings.Replace(clip, "0300320f", "0300000f", 1), 0},
		{"truncated before the VUI", clip[:14], 0},
		{"a PPS", "68ce3c80", 0},
		{"empty", "", 0},
		{"garbage", "67ffffffffffffffffffffffffffffffff", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hex.DecodeString(tc.sps)
			if err != nil {
				t.Fatal(err)
			}
			got, err := spsFrameRate(b)
			if (err != nil) != (tc.want == 0) || got != tc.want {
				t.Errorf("got %v %v, want %v", got, err, tc.want)
			}
		})
	}
}

func TestRBSP(t *testing.T) {
	for in, want := range map[string]string{
		"0000030100": "00000100",
		"000003":     "0000",
		"00000300":   "000000",
		"0003":       "0003",
		"1122":       "1122",
	} {
		b, _ := hex.DecodeString(in)
		if got := hex.EncodeToString(rbsp(b)); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestSampleFrameRate(t *testing.T) {
	if fps := sampleMedia().fps; fps != 25 {
		t.Errorf("the clip is paced at %v fps", fps)
	}
}

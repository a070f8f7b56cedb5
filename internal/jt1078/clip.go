package jt1078

import _ "embed" // the sample clip below

// The sample clip is ffmpeg's testsrc, 2 s: H.264 constrained baseline 640×360 at 25 fps with a key
// frame a second (50 pictures), and 8 kHz A-law audio of the same length. The simulator streams it
// to the platform when a terminal is asked for live video (issue 17); the codec tests read the same
// files. Embedded here, beside the tests that made them, so there is one copy (about 53 KB). clip.aac is
// the same audio as AAC LC in ADTS (8 kHz mono, 17 frames of 128 ms), for the terminals that send AAC.
var (
	//go:embed testdata/clip.h264
	clipH264 string
	//go:embed testdata/clip.alaw
	clipALaw string
	//go:embed testdata/clip.aac
	clipAAC string
)

// SampleClip returns copies of the sample clip's H.264 Annex B stream and its A-law audio.
func SampleClip() (h264, alaw []byte) { return []byte(clipH264), []byte(clipALaw) }

// SampleAAC returns a copy of the sample clip's audio as an ADTS AAC stream.
func SampleAAC() []byte { return []byte(clipAAC) }

package sim

import "errors"

// The simulator paces the clip by the frame rate its SPS declares (VUI timing info), so a fixture of
// another rate streams at its own speed; a stream without timing info is paced at 25 fps.

// bitReader reads an RBSP (emulation prevention bytes removed) bit by bit.
type bitReader struct {
	b   []byte
	pos int // in bits
	err bool
}

func (r *bitReader) bit() uint32 {
	if r.pos >= 8*len(r.b) {
		r.err = true
		return 0
	}
	v := uint32(r.b[r.pos/8]>>(7-r.pos%8)) & 1
	r.pos++
	return v
}

func (r *bitReader) bits(n int) uint32 {
	var v uint32
	for range n {
		v = v<<1 | r.bit()
	}
	return v
}

// ue reads an unsigned Exp-Golomb code (at most 31 leading zeros).
func (r *bitReader) ue() uint32 {
	zeros := 0
	for r.bit() == 0 {
		if r.err || zeros == 31 {
			r.err = true
			return 0
		}
		zeros++
	}
	return (1<<zeros - 1) + r.bits(zeros)
}

func (r *bitReader) se() int32 {
	v := r.ue()
	if v&1 == 1 {
		return int32((v + 1) / 2)
	}
	return -int32(v / 2)
}

// rbsp removes the emulation prevention bytes (00 00 03 → 00 00) of a NAL unit's payload.
func rbsp(n []byte) []byte {
	out := make([]byte, 0, len(n))
	zeros := 0
	for _, c := range n {
		if zeros >= 2 && c == 3 {
			zeros = 0
			continue
		}
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
		out = append(out, c)
	}
	return out
}

var errNoTiming = errors.New("sim: the SPS declares no frame rate")

// spsFrameRate returns the frame rate an H.264 SPS NAL unit (header byte included) declares in its VUI
// timing info: time_scale / (2 · num_units_in_tick).
func spsFrameRate(nal []byte) (float64, error) {
	if len(nal) < 4 || nal[0]&0x1f != 7 {
		return 0, errors.New("sim: not an SPS")
	}
	r := &bitReader{b: rbsp(nal[1:])}
	profile := r.bits(8)
	r.bits(16) // constraint flags, level
	r.ue()     // seq_parameter_set_id
	switch profile {
	case 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135:
		if r.ue() == 3 { // chroma_format_idc
			r.bit() // separate_colour_plane_flag
		}
		r.ue()            // bit_depth_luma_minus8
		r.ue()            // bit_depth_chroma_minus8
		r.bit()           // qpprime_y_zero_transform_bypass_flag
		if r.bit() == 1 { // seq_scaling_matrix_present_flag: not in the fixtures; not parsed
			return 0, errNoTiming
		}
	}
	r.ue()          // log2_max_frame_num_minus4
	switch r.ue() { // pic_order_cnt_type
	case 0:
		r.ue() // log2_max_pic_order_cnt_lsb_minus4
	case 1:
		r.bit() // delta_pic_order_always_zero_flag
		r.se()
		r.se()
		for n := r.ue(); n > 0 && !r.err; n-- {
			r.se()
		}
	}
	r.ue()            // max_num_ref_frames
	r.bit()           // gaps_in_frame_num_value_allowed_flag
	r.ue()            // pic_width_in_mbs_minus1
	r.ue()            // pic_height_in_map_units_minus1
	if r.bit() == 0 { // frame_mbs_only_flag
		r.bit() // mb_adaptive_frame_field_flag
	}
	r.bit()           // direct_8x8_inference_flag
	if r.bit() == 1 { // frame_cropping_flag
		r.ue()
		r.ue()
		r.ue()
		r.ue()
	}
	if r.bit() == 0 { // vui_parameters_present_flag
		return 0, errNoTiming
	}
	if r.bit() == 1 { // aspect_ratio_info_present_flag
		if r.bits(8) == 255 { // Extended_SAR
			r.bits(32)
		}
	}
	if r.bit() == 1 { // overscan_info_present_flag
		r.bit()
	}
	if r.bit() == 1 { // video_signal_type_present_flag
		r.bits(4)
		if r.bit() == 1 { // colour_description_present_flag
			r.bits(24)
		}
	}
	if r.bit() == 1 { // chroma_loc_info_present_flag
		r.ue()
		r.ue()
	}
	if r.bit() == 0 { // timing_info_present_flag
		return 0, errNoTiming
	}
	tick, scale := r.bits(32), r.bits(32)
	if r.err || tick == 0 || scale == 0 {
		return 0, errNoTiming
	}
	fps := float64(scale) / float64(2*tick)
	if fps < 1 || fps > 120 {
		return 0, errNoTiming
	}
	return fps, nil
}

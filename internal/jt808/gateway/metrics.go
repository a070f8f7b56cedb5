package gateway

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

type metrics struct {
	sessions   prometheus.Gauge
	online     prometheus.Gauge
	frames     *prometheus.CounterVec
	malformed  prometheus.Counter
	unauthed   prometheus.Counter
	tankErrors prometheus.Counter
	defects    *prometheus.CounterVec
	rejected   prometheus.Counter
	acks       prometheus.Counter
	ackLatency prometheus.Histogram
	commands   *prometheus.CounterVec
	refusals   *prometheus.CounterVec
	authClosed prometheus.Counter
	conflicts  prometheus.Counter
	blocked    prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Name: "tankwatch_jt808_sessions",
			Help: "Open JT/T 808 connections, authenticated or not."}),
		online: prometheus.NewGauge(prometheus.GaugeOpts{Name: "tankwatch_jt808_terminals_online",
			Help: "Authenticated JT/T 808 sessions."}),
		frames: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tankwatch_jt808_frames_total",
			Help: "Valid uplink frames by message ID (unknown IDs as \"other\")."}, []string{"msg"}),
		malformed: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_malformed_frames_total",
			Help: "Dropped uplink frames: bad escape, checksum, length, oversize or undecodable body."}),
		unauthed: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_unauthenticated_frames_total",
			Help: "Frames refused (0x8001 result 1, not stored) because the session was not authenticated."}),
		tankErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_tank_item_errors_total",
			Help: "Malformed tank extension items dropped; the report and its other items are kept."}),
		defects: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tankwatch_jt808_body_defects_total",
			Help: "Messages stored and acknowledged despite a defect, by message ID and defect " +
				"(cut_last_entry: the last item, position or parameter ran past the body and was dropped)."},
			[]string{"msg", "defect"}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_rejected_connections_total",
			Help: "Connections closed at accept because MaxConns was reached."}),
		acks: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_acks_total",
			Help: "0x8001 acknowledgements written after the reports were committed."}),
		ackLatency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tankwatch_jt808_ack_seconds",
			Help:    "From reading a report frame to writing its 0x8001 acknowledgement.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tankwatch_jt808_commands_total",
			Help: "Downlink commands by outcome."}, []string{"status"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tankwatch_jt808_refusals_total",
			Help: "Registrations (0x0100) and authentications (0x0102) refused, by reason; the terminal hears the same answer for each."},
			[]string{"reason"}),
		authClosed: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_auth_timeouts_total",
			Help: "Connections closed because they had not authenticated within --jt808-auth-timeout."}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_identity_conflicts_total",
			Help: "Identity-conflict alarms raised: a terminal was claimed by another connection while its live session went on."}),
		blocked: prometheus.NewCounter(prometheus.CounterOpts{Name: "tankwatch_jt808_blocked_addresses_total",
			Help: "Times an address was blocked for failing registration or authentication too often."}),
	}
	for _, r := range refuseReasons {
		m.refusals.WithLabelValues(r) // every reason shows, at 0, before the first refusal
	}
	return m
}

func (m *metrics) register(r prometheus.Registerer) error {
	if r == nil {
		return nil
	}
	for _, c := range []prometheus.Collector{m.sessions, m.online, m.frames, m.malformed, m.unauthed, m.tankErrors,
		m.defects, m.rejected, m.acks, m.ackLatency, m.commands, m.refusals, m.authClosed, m.conflicts, m.blocked} {
		if err := r.Register(c); err != nil {
			return fmt.Errorf("gateway metrics: %w", err)
		}
	}
	return nil
}

// knownMsg bounds the label values of frames_total: a terminal may send any of 65536 IDs.
var knownMsg = map[uint16]string{}

func init() {
	for _, id := range []uint16{0x0001, 0x0002, 0x0003, 0x0100, 0x0102, 0x0104, 0x0200, 0x0500, 0x0704, 0x0900, 0x1205} {
		knownMsg[id] = fmt.Sprintf("0x%04x", id)
	}
}

func msgLabel(id uint16) string {
	if s, ok := knownMsg[id]; ok {
		return s
	}
	return "other"
}

package observe

import "github.com/prometheus/client_golang/prometheus"

// StreamPool is what the stream pool's gauges read: the connections it
// holds and the streams open on them (upstream's pool).
type StreamPool interface {
	Stats() (conns, streams int)
}

// ObserveStreamPool adds the stream pool's gauges (docs/operations.md,
// "Metrics") to m; a nil m records nothing.
func (m *Metrics) ObserveStreamPool(p StreamPool) {
	if m == nil {
		return
	}
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mdc_gateway_stream_connections",
			Help: "gRPC connections the gateway holds open for streaming calls (watches, replays), apart from the one of the unary calls.",
		}, func() float64 {
			conns, _ := p.Stats()
			return float64(conns)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mdc_gateway_streams_open",
			Help: "Streaming calls (watches, replays) open on those connections.",
		}, func() float64 {
			_, streams := p.Stats()
			return float64(streams)
		}),
	)
}

package gateway

import "github.com/prometheus/client_golang/prometheus"

// observeStreamPool adds the stream pool's gauges (docs/operations.md,
// "Metrics") to m; a nil m records nothing.
func (m *httpMetrics) observeStreamPool(p *streamPool) {
	if m == nil {
		return
	}
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mdc_gateway_stream_connections",
			Help: "gRPC connections the gateway holds open for streaming calls (watches, replays), apart from the one of the unary calls.",
		}, func() float64 {
			conns, _ := p.stats()
			return float64(conns)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mdc_gateway_streams_open",
			Help: "Streaming calls (watches, replays) open on those connections.",
		}, func() float64 {
			_, streams := p.stats()
			return float64(streams)
		}),
	)
}

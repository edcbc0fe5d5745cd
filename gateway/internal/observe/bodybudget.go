package observe

import "github.com/prometheus/client_golang/prometheus"

// BodyBudget is what the body budget's gauges read: the request body bytes
// held now, and the part of them held by requests with unknown tokens
// (transport.BodyBudget).
type BodyBudget interface {
	InUse() (all, strangers int64)
}

// ObserveBodyBudget adds the body budget's gauges (docs/operations.md,
// "Metrics") to m; a nil m records nothing. They say when the budget is
// taken, e.g. by stalled uploads, without waiting for a 503 to show it.
func (m *Metrics) ObserveBodyBudget(b BodyBudget) {
	if m == nil {
		return
	}
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mdc_gateway_body_bytes_held",
			Help: "Request body bytes the gateway holds now, out of MDC_MAX_BODY_BYTES_IN_FLIGHT.",
		}, func() float64 {
			all, _ := b.InUse()
			return float64(all)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "mdc_gateway_body_bytes_held_unknown_tokens",
			Help: "The part of those bytes held by requests whose token the gateway has not seen accepted (at most half the budget).",
		}, func() float64 {
			_, strangers := b.InUse()
			return float64(strangers)
		}),
	)
}

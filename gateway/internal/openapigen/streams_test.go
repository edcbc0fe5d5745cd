package openapigen

import "testing"

// TestIsStreamRPC reads server streaming from the descriptors.
func TestIsStreamRPC(t *testing.T) {
	for rpc, want := range map[string]bool{
		"mdc.v1.StreamService.ReplayDay":   true,
		"mdc.v1.StreamService.WatchQuotes": true,
		"mdc.v1.DeveloperService.GetQuote": false,
		"mdc.v1.HealthService.Check":       false,
		"mdc.v1.NoService.Thing":           false,
	} {
		if got := isStreamRPC(rpc); got != want {
			t.Errorf("isStreamRPC(%q) = %v, want %v", rpc, got, want)
		}
	}
}

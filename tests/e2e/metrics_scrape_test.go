package e2e

// Reading a Prometheus /metrics page (text exposition format 0.0.4) into
// samples, for the metrics tests.

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sample is one line of a /metrics page: a series and its value.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

// scrape is every sample of one /metrics page.
type scrape []sample

// fetchScrape GETs http://addr/metrics and parses it.
func fetchScrape(t *testing.T, addr string) scrape {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scraping %s: %v", addr, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("scraping %s: %v", addr, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/metrics = %s", addr, resp.Status)
	}
	parsed, err := parseScrape(string(body))
	if err != nil {
		t.Fatalf("%s/metrics: %v\n%s", addr, err, body)
	}
	return parsed
}

// parseScrape reads the sample lines of a text exposition; comments (HELP,
// TYPE) and blank lines are skipped.
func parseScrape(text string) (scrape, error) {
	var out scrape
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s, err := parseSample(line)
		if err != nil {
			return nil, fmt.Errorf("line %d %q: %w", n+1, line, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// parseSample reads `name{label="value",...} value [timestamp]`.
func parseSample(line string) (sample, error) {
	s := sample{labels: map[string]string{}}
	end := strings.IndexAny(line, "{ ")
	if end <= 0 {
		return s, fmt.Errorf("no metric name")
	}
	s.name, line = line[:end], line[end:]
	if strings.HasPrefix(line, "{") {
		line = line[1:]
		for {
			line = strings.TrimLeft(line, ", ")
			if strings.HasPrefix(line, "}") {
				line = line[1:]
				break
			}
			eq := strings.Index(line, `="`)
			if eq <= 0 {
				return s, fmt.Errorf("malformed label")
			}
			name := line[:eq]
			line = line[eq+2:]
			var value strings.Builder
			closed := false
			for i := 0; i < len(line); i++ {
				c := line[i]
				if c == '\\' && i+1 < len(line) {
					i++
					switch line[i] {
					case 'n':
						value.WriteByte('\n')
					default:
						value.WriteByte(line[i])
					}
					continue
				}
				if c == '"' {
					line, closed = line[i+1:], true
					break
				}
				value.WriteByte(c)
			}
			if !closed {
				return s, fmt.Errorf("unterminated label value")
			}
			s.labels[name] = value.String()
		}
	}
	fields := strings.Fields(line)
	if len(fields) < 1 {
		return s, fmt.Errorf("no value")
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return s, fmt.Errorf("value: %w", err)
	}
	s.value = v
	return s, nil
}

// names is the set of sample names of the scrape (histograms give
// name_bucket, name_sum and name_count).
func (sc scrape) names() map[string]bool {
	out := map[string]bool{}
	for _, s := range sc {
		out[s.name] = true
	}
	return out
}

// find is the samples named name whose labels include want.
func (sc scrape) find(name string, want map[string]string) []sample {
	var out []sample
	for _, s := range sc {
		if s.name != name {
			continue
		}
		match := true
		for k, v := range want {
			if s.labels[k] != v {
				match = false
				break
			}
		}
		if match {
			out = append(out, s)
		}
	}
	return out
}

// sum adds the values of the samples named name whose labels include want.
func (sc scrape) sum(name string, want map[string]string) float64 {
	total := 0.0
	for _, s := range sc.find(name, want) {
		total += s.value
	}
	return total
}

// waitForGauge polls the /metrics page at addr until the unlabelled gauge
// name reaches at least want, for at most 30 s: a gateway state (e.g. a held
// body budget) read from the process instead of waited for by the clock.
func waitForGauge(t *testing.T, addr, name string, want float64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		last := "absent"
		for _, s := range fetchScrape(t, addr) {
			if s.name == name {
				if s.value >= want {
					return
				}
				last = fmt.Sprint(s.value)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s at %s did not reach %v within 30 s (last: %s)", name, addr, want, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

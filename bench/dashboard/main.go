// Command dashboard-bench measures the two heavy dashboard reads against a
// running mdc stack (gateway + server + PostgreSQL):
//
//   - List Orders of a run of 500 orders, every order with its outcome;
//   - Shortlist with trade outcomes for 20 entries;
//
// with 20 trading days of 1-minute quotes stored for 20 symbols. Baselines
// measured in the same run: the same Shortlist without outcomes, and List
// Runs. Latencies are taken at the client and, when -server-log names the
// server's stderr log, at the server (the latency_ms of its request lines).
//
// It only uses the public HTTP API (an admin token is accepted wherever a
// developer token is). Standard library only.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"
)

var (
	baseURL   = flag.String("url", "http://127.0.0.1:8080", "gateway base URL")
	token     = flag.String("token", os.Getenv("MDC_BENCH_TOKEN"), "bearer token (developer or admin)")
	serverLog = flag.String("server-log", "", "the server's stderr log file, for server-side latencies")
	days      = flag.Int("days", 20, "trading days of quotes")
	symbols   = flag.Int("symbols", 20, "symbols (= shortlist entries)")
	orders    = flag.Int("orders", 500, "orders in the run")
	requests  = flag.Int("requests", 300, "measured requests per operation")
	warmup    = flag.Int("warmup", 20, "unmeasured requests per operation first")
	loaders   = flag.Int("loaders", 4, "parallel requests while loading data")
	phase     = flag.String("phase", "all", "load, measure, or all (load then measure)")
	label     = flag.String("label", "", "printed above the measurements")
)

var client = &http.Client{Timeout: 60 * time.Second}

func call(method, path string, body any) ([]byte, time.Duration) {
	var reader io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			log.Fatal(err)
		}
		reader = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, *baseURL+path, reader)
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+*token)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		log.Fatalf("%s %s: %v", method, path, err)
	}
	out, err := io.ReadAll(resp.Body)
	elapsed := time.Since(start)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		log.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, out)
	}
	return out, elapsed
}

// Weekdays from 2025-01-06 on (holidays are irrelevant to storage).
func tradingDays(n int) []time.Time {
	var out []time.Time
	for d := time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC); len(out) < n; d = d.AddDate(0, 0, 1) {
		if d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
			out = append(out, d)
		}
	}
	return out
}

func symbolName(i int) string { return fmt.Sprintf("BENCH%02d", i) }

func wallClock(day time.Time, minuteOfSession int) string {
	t := day.Add(9*time.Hour + 15*time.Minute + time.Duration(minuteOfSession)*time.Minute)
	return t.Format("2006-01-02T15:04:05")
}

// load stores one quote per symbol per session minute (375 a day), one
// shortlist snapshot a day at 10:00 IST, and a run of -orders orders.
func load(dayList []time.Time) (runID string) {
	rng := rand.New(rand.NewSource(1))
	type job struct{ body any }
	jobs := make(chan job)
	var wg sync.WaitGroup
	for i := 0; i < *loaders; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				call("POST", "/v1/developer/collector/quotes", j.body)
			}
		}()
	}
	prices := make([]float64, *symbols)
	for s := range prices {
		prices[s] = 100 + float64(s)*25
	}
	for _, day := range dayList {
		volume := make([]float64, *symbols)
		for m := 0; m < 375; m++ {
			quotes := make([]any, 0, *symbols)
			for s := 0; s < *symbols; s++ {
				prices[s] = math.Max(1, prices[s]*(1+rng.NormFloat64()*0.002))
				volume[s] += float64(rng.Intn(5000))
				p := math.Round(prices[s]*20) / 20
				quotes = append(quotes, map[string]any{
					"nseSymbol": symbolName(s),
					"quoteData": map[string]any{"status": "SUCCESS", "payload": map[string]any{
						"last_price": p, "volume": volume[s], "day_change_perc": 0.5,
						"ohlc": map[string]any{"open": p, "high": p, "low": p, "close": p},
					}},
				})
			}
			jobs <- job{map[string]any{"data": map[string]any{
				"timestamp": wallClock(day, m), "timezone": "Asia/Kolkata", "quotes": quotes}}}
		}
		entries := make([]any, 0, *symbols)
		for s := 0; s < *symbols; s++ {
			entries = append(entries, map[string]any{
				"nseSymbol": symbolName(s), "name": symbolName(s) + " Ltd", "price": 100 + float64(s)*25})
		}
		call("POST", "/v1/developer/collector/shortlists", map[string]any{"data": map[string]any{
			"timestamp": day.Format("2006-01-02") + "T10:00:00", "timezone": "Asia/Kolkata",
			"shortlistType": "TOP_GAINERS", "scope": "FULL", "entries": entries}})
	}
	close(jobs)
	wg.Wait()

	first, last := dayList[0], dayList[len(dayList)-1]
	out, _ := call("POST", "/v1/dashboard/runs", map[string]any{
		"start_datetime": first.Format("2006-01-02") + "T09:15:00",
		"end_datetime":   last.Format("2006-01-02") + "T15:30:00",
		"name":           "bench", "tags": []string{"bench"}})
	var run struct{ ID string }
	if err := json.Unmarshal(out, &run); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < *orders; i++ {
		day := dayList[i%len(dayList)]
		entry := 100 + float64(i%*symbols)*25
		call("POST", "/v1/dashboard/runs/"+run.ID+"/orders", map[string]any{
			"nseSymbol": symbolName(i % *symbols), "entryPrice": entry,
			"stopLossPrice": entry * 0.99, "takeProfitPrice": entry * 1.01,
			"datetime": wallClock(day, 30+i%300), "timezone": "Asia/Kolkata"})
	}
	return run.ID
}

type operation struct {
	name   string // as reported
	method string // gRPC method in the server log
	path   func(i int) string
}

func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	if i < 0 {
		i = 0
	}
	return sorted[i]
}

// serverLatencies reads the latency_ms of `method`'s request lines written
// after byte `offset` of the server log.
func serverLatencies(offset int64, method string) []float64 {
	if *serverLog == "" {
		return nil
	}
	f, err := os.Open(*serverLog)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		log.Fatal(err)
	}
	var out []float64
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		var line struct {
			Msg       string  `json:"msg"`
			Method    string  `json:"method"`
			Code      string  `json:"code"`
			LatencyMs float64 `json:"latency_ms"`
		}
		if json.Unmarshal(scanner.Bytes(), &line) != nil || line.Method != method {
			continue
		}
		out = append(out, line.LatencyMs)
	}
	sort.Float64s(out)
	return out
}

func logSize() int64 {
	if *serverLog == "" {
		return 0
	}
	st, err := os.Stat(*serverLog)
	if err != nil {
		log.Fatal(err)
	}
	return st.Size()
}

func main() {
	flag.Parse()
	if *token == "" {
		log.Fatal("-token (or MDC_BENCH_TOKEN) is required")
	}
	dayList := tradingDays(*days)
	var runID string
	if *phase == "load" || *phase == "all" {
		start := time.Now()
		runID = load(dayList)
		fmt.Printf("loaded %d days x %d symbols x 375 minutes of quotes, %d orders in %.1fs\n",
			*days, *symbols, *orders, time.Since(start).Seconds())
		if *phase == "load" {
			return
		}
	} else {
		out, _ := call("GET", "/v1/dashboard/runs?tag=bench", nil)
		var runs struct{ Runs []struct{ ID string } }
		if err := json.Unmarshal(out, &runs); err != nil || len(runs.Runs) == 0 {
			log.Fatalf("no run tagged bench: load first (%v)", err)
		}
		runID = runs.Runs[0].ID
	}
	if *label != "" {
		fmt.Printf("\n== %s\n", *label)
	}

	shortlist := func(outcomes bool) func(int) string {
		return func(i int) string {
			p := "/v1/dashboard/shortlists?type=TOP_GAINERS&scope=FULL&datetime=" +
				dayList[i%len(dayList)].Format("2006-01-02") + "T10:30:00"
			if outcomes {
				p += "&takeProfitPercentage=1&stopLossPercentage=1"
			}
			return p
		}
	}
	ops := []operation{
		{"List Orders (500, outcomes)", "ListOrders", func(int) string {
			return fmt.Sprintf("/v1/dashboard/runs/%s/orders?pageSize=1000", runID)
		}},
		{"Shortlist (20 entries, outcomes)", "GetShortlist", shortlist(true)},
		{"baseline: Shortlist without outcomes", "GetShortlist", shortlist(false)},
		{"baseline: List Runs", "ListRuns", func(int) string { return "/v1/dashboard/runs" }},
	}
	// Sanity: the orders answer really carries outcomes.
	out, _ := call("GET", ops[0].path(0), nil)
	var listed struct {
		Orders []struct {
			Outcome struct {
				TargetAchieved *bool `json:"targetAchieved"`
			} `json:"outcome"`
		} `json:"orders"`
	}
	if err := json.Unmarshal(out, &listed); err != nil || len(listed.Orders) != *orders {
		log.Fatalf("List Orders answered %d orders (want %d): %v", len(listed.Orders), *orders, err)
	}
	withOutcome := 0
	for _, o := range listed.Orders {
		if o.Outcome.TargetAchieved != nil {
			withOutcome++
		}
	}
	fmt.Printf("orders with outcome fields: %d of %d\n\n", withOutcome, len(listed.Orders))

	fmt.Printf("%-40s %8s %10s %10s %10s %10s\n", "operation", "requests",
		"client p50", "client p99", "server p50", "server p99")
	for _, op := range ops {
		for i := 0; i < *warmup; i++ {
			call("GET", op.path(i), nil)
		}
		offset := logSize()
		var client []float64
		for i := 0; i < *requests; i++ {
			_, d := call("GET", op.path(i), nil)
			client = append(client, float64(d.Microseconds())/1000)
		}
		sort.Float64s(client)
		time.Sleep(200 * time.Millisecond) // let the last log lines land
		server := serverLatencies(offset, op.method)
		fmt.Printf("%-40s %8d %8.2fms %8.2fms %8.2fms %8.2fms\n", op.name, len(client),
			percentile(client, 50), percentile(client, 99),
			percentile(server, 50), percentile(server, 99))
	}
}

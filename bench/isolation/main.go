// Command isolation is the load of bench/isolation/run.sh: do collector
// writes keep their latency while many clients read 1,000-symbol
// cross-sections (issue 31, item 3)?
//
//	isolation -url URL -admin-token T -prefix IS -symbols 1000 \
//	    -day 2035-09-04 -writers 8 -rate 20 -quotes 10 -readers 32 \
//	    -rounds 3 -seconds 20
//
// It creates one developer per writer and per reader (admin API), then runs
// -rounds rounds, each of two phases in turn:
//   - alone: the writers only;
//   - readers: the same writers while -readers clients (each its own
//     developer) ask GET /v1/developer/quotes of all -symbols symbols, one
//     call after another, from 2 s before the writers start until they stop.
//
// The writers are an open loop, as collectors are: each sends a Save Quote
// of -quotes quotes every 1/-rate s, on schedule, whether or not its last
// write has been answered; a write's latency runs from its scheduled
// instant (so time spent queued in the writer counts too). Throughput is
// the writes answered 200 within the phase's -seconds, per second. A reader
// answered 429 waits out its Retry-After (as the mdc clients do) and asks
// again. Each phase prints
//
//	PHASE round=.. mode=alone|readers writes=.. ok=.. failed=.. p50_ms=..
//	  p99_ms=.. max_ms=.. writes_per_s=.. reads_200=.. reads_429=..
//	  reads_other=.. read_p50_ms=.. read_p99_ms=..
//
// and at the end the medians over the rounds and their ratios:
//
//	RESULT alone_p50_ms=.. alone_p99_ms=.. alone_wps=.. readers_p50_ms=..
//	  readers_p99_ms=.. readers_wps=.. p99_ratio=.. wps_ratio=.. ...
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type config struct {
	base, adminToken, prefix, day string
	symbols, writers, quotes      int
	readers, rounds               int
	rate                          float64
	seconds                       time.Duration
}

func main() {
	var c config
	var secs int
	flag.StringVar(&c.base, "url", "", "gateway base URL")
	flag.StringVar(&c.adminToken, "admin-token", "", "admin token (creates the developers)")
	flag.StringVar(&c.prefix, "prefix", "IS", "symbols are PREFIX0 .. PREFIX<n-1>")
	flag.StringVar(&c.day, "day", "2035-09-04", "the seeded trading day")
	flag.IntVar(&c.symbols, "symbols", 1000, "symbols of a cross-section")
	flag.IntVar(&c.writers, "writers", 8, "collector writers")
	flag.Float64Var(&c.rate, "rate", 20, "writes a second of each writer")
	flag.IntVar(&c.quotes, "quotes", 10, "quotes per write")
	flag.IntVar(&c.readers, "readers", 32, "cross-section clients")
	flag.IntVar(&c.rounds, "rounds", 3, "rounds of (alone, readers)")
	flag.IntVar(&secs, "seconds", 20, "measured seconds of each phase")
	flag.Parse()
	c.seconds = time.Duration(secs) * time.Second
	if c.base == "" || c.adminToken == "" {
		fail(errors.New("-url and -admin-token are required"))
	}
	if c.writers*c.quotes > c.symbols {
		fail(errors.New("-writers x -quotes must not exceed -symbols (each writer writes symbols of its own)"))
	}
	run := fmt.Sprintf("%d", time.Now().UnixNano()%1e9)
	writerTokens := createDevelopers(c, "isow"+run, c.writers)
	readerTokens := createDevelopers(c, "isor"+run, c.readers)

	ws := make([]*writer, c.writers)
	for i := range ws {
		ws[i] = newWriter(c, i, writerTokens[i])
	}
	// Warm-up: connections open, statements prepared, caches filled.
	runWriters(c, ws, 3*time.Second)

	var alone, loaded []phase
	for r := 1; r <= c.rounds; r++ {
		a := runPhase(c, ws, nil)
		a.print(r, "alone")
		alone = append(alone, a)
		l := runPhase(c, ws, readerTokens)
		l.print(r, "readers")
		loaded = append(loaded, l)
	}
	med := func(ps []phase, f func(phase) float64) float64 {
		v := make([]float64, len(ps))
		for i, p := range ps {
			v[i] = f(p)
		}
		sort.Float64s(v)
		return v[(len(v)-1)/2]
	}
	p50 := func(p phase) float64 { return p.p50 }
	p99 := func(p phase) float64 { return p.p99 }
	wps := func(p phase) float64 { return p.wps }
	// Ratios of each round's own pair, then their median: the machine's
	// noise moves both phases of a round alike.
	p99Ratio := make([]phase, len(alone))
	wpsRatio := make([]phase, len(alone))
	for i := range alone {
		p99Ratio[i].p99 = loaded[i].p99 / alone[i].p99
		wpsRatio[i].wps = loaded[i].wps / alone[i].wps
	}
	var r200, r429, rOther, answerBytes int64
	var readP50, readP99 []phase
	for _, l := range loaded {
		r200 += l.reads200
		r429 += l.reads429
		rOther += l.readsOther
		answerBytes = max(answerBytes, l.answerBytes)
		readP50 = append(readP50, phase{p50: l.readP50})
		readP99 = append(readP99, phase{p99: l.readP99})
	}
	fmt.Printf("RESULT rounds=%d alone_p50_ms=%.1f alone_p99_ms=%.1f alone_wps=%.1f "+
		"readers_p50_ms=%.1f readers_p99_ms=%.1f readers_wps=%.1f p99_ratio=%.2f wps_ratio=%.2f "+
		"reads_200=%d reads_429=%d reads_other=%d reads_per_s=%.1f read_p50_ms=%.0f read_p99_ms=%.0f answer_kb=%d\n",
		c.rounds, med(alone, p50), med(alone, p99), med(alone, wps),
		med(loaded, p50), med(loaded, p99), med(loaded, wps),
		med(p99Ratio, p99), med(wpsRatio, wps),
		r200, r429, rOther, float64(r200)/(float64(c.rounds)*c.seconds.Seconds()),
		med(readP50, p50), med(readP99, p99), answerBytes/1024)
}

// phase is what one phase measured.
type phase struct {
	writes, ok, failed             int
	p50, p99, max, wps             float64
	reads200, reads429, readsOther int64
	readP50, readP99               float64
	answerBytes                    int64
}

func (p phase) print(round int, mode string) {
	fmt.Printf("PHASE round=%d mode=%s writes=%d ok=%d failed=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f "+
		"writes_per_s=%.1f reads_200=%d reads_429=%d reads_other=%d read_p50_ms=%.0f read_p99_ms=%.0f\n",
		round, mode, p.writes, p.ok, p.failed, p.p50, p.p99, p.max, p.wps,
		p.reads200, p.reads429, p.readsOther, p.readP50, p.readP99)
}

// runPhase runs the writers for c.seconds; with readerTokens, while one
// reader per token asks cross-sections, from 2 s before until after.
func runPhase(c config, ws []*writer, readerTokens []string) phase {
	var rd *readers
	if readerTokens != nil {
		rd = startReaders(c, readerTokens)
		time.Sleep(2 * time.Second) // the readers reach their pace
	}
	results := runWriters(c, ws, c.seconds)
	var p phase
	if rd != nil {
		lat := rd.stop()
		p.reads200, p.reads429, p.readsOther = rd.ok.Load(), rd.limited.Load(), rd.other.Load()
		p.readP50, p.readP99 = percentile(lat, 50), percentile(lat, 99)
		p.answerBytes = rd.answerBytes.Load()
		if errText := rd.firstOther.Load(); errText != nil {
			fmt.Fprintf(os.Stderr, "a read failed: %s\n", *errText)
		}
	}
	var lat []float64
	for _, r := range results {
		p.writes++
		if r.err != nil {
			p.failed++
			if p.failed == 1 {
				fmt.Fprintf(os.Stderr, "a write failed: %v\n", r.err)
			}
			continue
		}
		p.ok++
		lat = append(lat, r.ms)
		if r.inWindow {
			p.wps++
		}
	}
	p.wps /= c.seconds.Seconds()
	p.p50, p.p99, p.max = percentile(lat, 50), percentile(lat, 99), percentile(lat, 100)
	return p
}

// writeResult is one write: its latency from its scheduled instant, and
// whether it was answered within the phase.
type writeResult struct {
	ms       float64
	inWindow bool
	err      error
}

// runWriters runs every writer for d, open loop, and waits for the answers
// of every write scheduled in that time.
func runWriters(c config, ws []*writer, d time.Duration) []writeResult {
	start := time.Now()
	end := start.Add(d)
	interval := time.Duration(float64(time.Second) / c.rate)
	var mu sync.Mutex
	var results []writeResult
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var calls sync.WaitGroup
			// Writers start spread over one interval, as independent
			// collectors would.
			first := start.Add(interval * time.Duration(i) / time.Duration(len(ws)))
			for at := first; at.Before(end); at = at.Add(interval) {
				time.Sleep(time.Until(at))
				body := w.next()
				calls.Add(1)
				go func() {
					defer calls.Done()
					err := w.post(body)
					done := time.Now()
					mu.Lock()
					results = append(results, writeResult{
						ms: float64(done.Sub(at).Microseconds()) / 1000, inWindow: !done.After(end), err: err})
					mu.Unlock()
				}()
			}
			calls.Wait()
		}()
	}
	wg.Wait()
	return results
}

// writer is one collector: Save Quote of its own symbols, each write one
// second (of market time) after its last.
type writer struct {
	client  *http.Client
	url     string
	token   string
	symbols []string
	day     time.Time
	seq     int
}

var ist = time.FixedZone("IST", 5*3600+1800)

func newWriter(c config, i int, token string) *writer {
	day, err := time.ParseInLocation("2006-01-02", c.day, ist)
	if err != nil {
		fail(err)
	}
	w := &writer{client: newClient(), url: c.base + "/v1/developer/collector/quotes", token: token, day: day}
	for k := 0; k < c.quotes; k++ {
		w.symbols = append(w.symbols, fmt.Sprintf("%s%d", c.prefix, i*c.quotes+k))
	}
	return w
}

// A full quote, as a collector stores it: every payload number, ohlc and 5
// levels of depth a side.
const quotePayload = `{"last_price":%g,"day_change":1.5,"day_change_perc":1.52,"volume":%d,"average_price":99.9,` +
	`"bid_quantity":10,"bid_price":100.2,"upper_circuit_limit":110,"lower_circuit_limit":90,"high_trade_range":105,` +
	`"low_trade_range":95,"implied_volatility":12.5,"last_trade_quantity":5,"market_cap":1000000,"offer_price":100.3,` +
	`"offer_quantity":12,"oi_day_change":0,"oi_day_change_percentage":0,"open_interest":0,"previous_open_interest":0,` +
	`"total_buy_quantity":5000,"total_sell_quantity":6000,"week_52_high":120,"week_52_low":80,` +
	`"last_trade_time":2072919300000,"ohlc":{"open":99,"high":101,"low":98,"close":98.8},` +
	`"depth":{"buy":[{"price":99.5,"quantity":10},{"price":99.4,"quantity":20},{"price":99.3,"quantity":30},` +
	`{"price":99.2,"quantity":40},{"price":99.1,"quantity":50}],"sell":[{"price":100.5,"quantity":10},` +
	`{"price":100.6,"quantity":20},{"price":100.7,"quantity":30},{"price":100.8,"quantity":40},{"price":100.9,"quantity":50}]}}`

// next is the body of the writer's next write: its symbols at the next
// second after 10:00 IST of the day (after the seeded quotes' reads).
func (w *writer) next() []byte {
	at := w.day.Add(10*time.Hour + time.Duration(w.seq)*time.Second)
	w.seq++
	var b strings.Builder
	fmt.Fprintf(&b, `{"data":{"timestamp":%q,"quotes":[`, at.Format("2006-01-02T15:04:05"))
	for k, s := range w.symbols {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"nseSymbol":%q,"quoteData":{"status":"SUCCESS","payload":`+quotePayload+`}}`,
			s, 100+float64(w.seq%100)/4, 1000+w.seq)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func (w *writer) post(body []byte) error {
	req, _ := http.NewRequest(http.MethodPost, w.url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+w.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%d %s", resp.StatusCode, answer)
	}
	return nil
}

// readers are the cross-section clients of one phase.
type readers struct {
	cancel             context.CancelFunc
	wg                 sync.WaitGroup
	mu                 sync.Mutex
	latencies          []float64
	ok, limited, other atomic.Int64
	firstOther         atomic.Pointer[string]
	answerBytes        atomic.Int64 // of the last 200
}

func startReaders(c config, tokens []string) *readers {
	ctx, cancel := context.WithCancel(context.Background())
	rd := &readers{cancel: cancel}
	symbols := make([]string, c.symbols)
	for i := range symbols {
		symbols[i] = fmt.Sprintf("%s%d", c.prefix, i)
	}
	// As of 09:59:59: the seeded quotes, before anything the writers add.
	target := c.base + "/v1/developer/quotes?datetime=" + url.QueryEscape(c.day+"T09:59:59") +
		"&symbols=" + strings.Join(symbols, ",")
	client := newClient()
	for _, token := range tokens {
		rd.wg.Add(1)
		go func() {
			defer rd.wg.Done()
			for ctx.Err() == nil {
				rd.readOnce(ctx, client, target, token, c.symbols)
			}
		}()
	}
	return rd
}

func (rd *readers) readOnce(ctx context.Context, client *http.Client, target, token string, want int) {
	start := time.Now()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			rd.other.Add(1)
			text := err.Error()
			rd.firstOther.CompareAndSwap(nil, &text)
		}
		return
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	switch {
	case err != nil:
		if ctx.Err() == nil {
			rd.other.Add(1)
		}
	case resp.StatusCode == http.StatusOK:
		var answer struct {
			Quotes []json.RawMessage `json:"quotes"`
		}
		if json.Unmarshal(body, &answer) != nil || len(answer.Quotes) != want {
			rd.other.Add(1)
			text := fmt.Sprintf("200 with %d quotes, want %d", len(answer.Quotes), want)
			rd.firstOther.CompareAndSwap(nil, &text)
			return
		}
		rd.ok.Add(1)
		rd.answerBytes.Store(int64(len(body)))
		rd.mu.Lock()
		rd.latencies = append(rd.latencies, float64(time.Since(start).Microseconds())/1000)
		rd.mu.Unlock()
	case resp.StatusCode == http.StatusTooManyRequests:
		rd.limited.Add(1)
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(max(wait, 1)) * time.Second):
		}
	default:
		rd.other.Add(1)
		text := fmt.Sprintf("%d %s", resp.StatusCode, body)
		rd.firstOther.CompareAndSwap(nil, &text)
	}
}

// stop ends the readers and returns the latencies of their 200s.
func (rd *readers) stop() []float64 {
	rd.cancel()
	rd.wg.Wait()
	return rd.latencies
}

func newClient() *http.Client {
	return &http.Client{
		Timeout:   2 * time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: 512, IdleConnTimeout: time.Minute},
	}
}

// createDevelopers makes n developers named prefix-i and returns their
// tokens.
func createDevelopers(c config, prefix string, n int) []string {
	client := newClient()
	tokens := make([]string, n)
	for i := range tokens {
		body := fmt.Sprintf(`{"username":"%s-%d","role":"developer"}`, prefix, i)
		req, _ := http.NewRequest(http.MethodPost, c.base+"/v1/admin/developers", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+c.adminToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			fail(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var dev struct {
			Token string `json:"token"`
		}
		if resp.StatusCode != http.StatusOK || json.Unmarshal(answer, &dev) != nil || dev.Token == "" {
			fail(fmt.Errorf("create developer: %d %s", resp.StatusCode, answer))
		}
		tokens[i] = dev.Token
	}
	return tokens
}

// percentile of v (nearest rank); 0 for none.
func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "isolation:", err)
	os.Exit(1)
}

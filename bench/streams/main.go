// Command streams measures mdc's streams (docs/api.md section 10) against a
// running stack: day replay throughput over gRPC and over HTTP (NDJSON)
// against the same day read with as-of requests, and watch latency from a
// write to its delivery with many watchers under a steady write rate.
// Medians of several runs, all measured in the same run of this program.
//
//	go run . -grpc ADDR -url http://HTTP_ADDR -token TOKEN
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"mdc/gateway/gen/mdcv1"
)

var (
	grpcAddr = flag.String("grpc", "127.0.0.1:50051", "mdc-server gRPC address")
	baseURL  = flag.String("url", "http://127.0.0.1:8080", "mdc-gateway base URL")
	token    = flag.String("token", "", "developer or admin token")
	day      = flag.String("day", "2031-03-04", "trading day to load and replay")
	symbols  = flag.Int("symbols", 200, "symbols with a quote every minute of the session")
	seconds  = flag.Int("every", 30, "seconds between two quotes of a symbol")
	runs     = flag.Int("runs", 5, "replays per transport (median reported)")
	asOfN    = flag.Int("asof", 3000, "as-of requests timed")
	watchers = flag.Int("watchers", 100, "watchers for the latency run")
	rate     = flag.Int("rate", 1000, "writes per second in the latency run")
	duration = flag.Duration("duration", 10*time.Second, "length of the latency run")
	skipLoad = flag.Bool("skip-load", false, "the day is already loaded")
)

func ctx() context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+*token)
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func percentile(xs []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(float64(len(s)-1)*p)]
}

func wallClock(t time.Time) string { return t.Format("2006-01-02T15:04:05") }

func sessionStart() time.Time {
	d, err := time.ParseInLocation("2006-01-02", *day, time.FixedZone("IST", 19800))
	if err != nil {
		log.Fatal(err)
	}
	return d.Add(9*time.Hour + 15*time.Minute)
}

// load writes the day: every symbol every -every seconds of the session.
func load(conn *grpc.ClientConn) int {
	collector := mdcv1.NewCollectorServiceClient(conn)
	start := sessionStart()
	steps := 375 * 60 / *seconds
	var wg sync.WaitGroup
	jobs := make(chan int)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				quotes := make([]*mdcv1.QuoteItem, *symbols)
				for s := range quotes {
					price := 100 + float64(i%50)
					volume := float64(i * 10)
					quotes[s] = &mdcv1.QuoteItem{NseSymbol: fmt.Sprintf("SYM%03d", s), QuoteData: &mdcv1.QuoteData{
						Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: &price, Volume: &volume}}}
				}
				at := wallClock(start.Add(time.Duration(i**seconds) * time.Second))
				if _, err := collector.SaveQuotes(ctx(), &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
					Timestamp: at, Timezone: "Asia/Kolkata", Quotes: quotes}}); err != nil {
					log.Fatalf("load %s: %v", at, err)
				}
			}
		}()
	}
	for i := 0; i < steps; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return steps * *symbols
}

func replayGRPC(client mdcv1.StreamServiceClient) (int, time.Duration) {
	begin := time.Now()
	stream, err := client.ReplayDay(ctx(), &mdcv1.ReplayDayRequest{Date: *day})
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for {
		msg, err := stream.Recv()
		if err != nil {
			if err.Error() != "EOF" && !strings.Contains(err.Error(), "EOF") {
				log.Fatal(err)
			}
			break
		}
		n += len(msg.GetEvents())
	}
	return n, time.Since(begin)
}

func replayHTTP() (int, time.Duration) {
	begin := time.Now()
	req, _ := http.NewRequest("GET", *baseURL+"/v1/developer/replay?date="+*day, nil)
	req.Header.Set("Authorization", "Bearer "+*token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		log.Fatalf("HTTP replay: %v %v", err, resp)
	}
	defer resp.Body.Close()
	n := 0
	scanner := bufio.NewScanner(resp.Body)
	scanner.Buffer(nil, 64<<20)
	for scanner.Scan() {
		// One line per message; its events are `"cursor":"r...` entries
		// plus the message's own cursor.
		n += strings.Count(scanner.Text(), `{"cursor":"r`)
	}
	return n, time.Since(begin)
}

// asOf times as-of reads (GetQuote of one symbol at one minute) over gRPC,
// the way a backtest walks a day without replay. Replay over gRPC is
// compared with it; replay over HTTP with asOfHTTP.
func asOf(conn *grpc.ClientConn) float64 {
	dev := mdcv1.NewDeveloperServiceClient(conn)
	start := sessionStart()
	begin := time.Now()
	for i := 0; i < *asOfN; i++ {
		at := wallClock(start.Add(time.Duration(i%375) * time.Minute))
		if _, err := dev.GetQuote(ctx(), &mdcv1.GetQuoteRequest{Symbol: fmt.Sprintf("SYM%03d", i%*symbols), Datetime: at}); err != nil {
			log.Fatal(err)
		}
	}
	return float64(*asOfN) / time.Since(begin).Seconds()
}

// asOfHTTP is asOf through the gateway (GET /v1/developer/quote, one
// keep-alive connection, sequential), the baseline of replay over HTTP.
func asOfHTTP() float64 {
	start := sessionStart()
	client := &http.Client{}
	begin := time.Now()
	for i := 0; i < *asOfN; i++ {
		at := wallClock(start.Add(time.Duration(i%375) * time.Minute))
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/v1/developer/quote?symbol=SYM%03d&datetime=%s", *baseURL, i%*symbols, at), nil)
		req.Header.Set("Authorization", "Bearer "+*token)
		resp, err := client.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			log.Fatalf("HTTP as-of read: %s", resp.Status)
		}
	}
	return float64(*asOfN) / time.Since(begin).Seconds()
}

// latency: watchers on one symbol each (cycled), writes at -rate per second
// of one quote each; the time from sending a write to each watcher's
// receipt of it.
func latency(conn *grpc.ClientConn) []time.Duration {
	// A connection carries at most MDC_MAX_THREADS/2 calls at once: 25
	// watchers per connection.
	var clients []mdcv1.StreamServiceClient
	for i := 0; i < (*watchers+24)/25; i++ {
		c, err := grpc.NewClient(*grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			log.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, mdcv1.NewStreamServiceClient(c))
	}
	const symbolsWatched = 10
	sent := sync.Map{} // key "SYM@ts" -> time.Time
	var mu sync.Mutex
	var lat []time.Duration
	var ready sync.WaitGroup
	cctx, cancel := context.WithCancel(ctx())
	defer cancel()
	for w := 0; w < *watchers; w++ {
		ready.Add(1)
		go func(w int) {
			stream, err := clients[w/25].WatchQuotes(cctx, &mdcv1.WatchQuotesRequest{Symbols: []string{fmt.Sprintf("LAT%02d", w%symbolsWatched)}})
			if err != nil {
				log.Fatal(err)
			}
			if _, err := stream.Recv(); err != nil {
				log.Fatal(err)
			}
			ready.Done()
			for {
				msg, err := stream.Recv()
				if err != nil {
					return
				}
				now := time.Now()
				for _, e := range msg.GetEvents() {
					q := e.GetQuote()
					key := q.GetNseSymbol() + "@" + q.GetTimestamp().AsTime().String()
					if t, ok := sent.Load(key); ok {
						mu.Lock()
						lat = append(lat, now.Sub(t.(time.Time)))
						mu.Unlock()
					}
				}
			}
		}(w)
	}
	ready.Wait()
	collector := mdcv1.NewCollectorServiceClient(conn)
	base := sessionStart().AddDate(0, 0, 1)
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	defer tick.Stop()
	total := int(duration.Seconds() * float64(*rate))
	var wg sync.WaitGroup
	for i := 0; i < total; i++ {
		<-tick.C
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sym := fmt.Sprintf("LAT%02d", i%symbolsWatched)
			at := base.Add(time.Duration(i) * time.Second)
			price := float64(i)
			sent.Store(sym+"@"+at.UTC().String(), time.Now())
			if _, err := collector.SaveQuotes(ctx(), &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
				Timestamp: wallClock(at), Timezone: "Asia/Kolkata",
				Quotes: []*mdcv1.QuoteItem{{NseSymbol: sym, QuoteData: &mdcv1.QuoteData{
					Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: &price}}}}}}); err != nil {
				log.Fatal(err)
			}
		}(i)
	}
	wg.Wait()
	time.Sleep(2 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	return lat
}

func main() {
	flag.Parse()
	conn, err := grpc.NewClient(*grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20)))
	if err != nil {
		log.Fatal(err)
	}
	if !*skipLoad {
		begin := time.Now()
		n := load(conn)
		fmt.Printf("loaded %d quotes of %s in %.1f s\n", n, *day, time.Since(begin).Seconds())
	}
	client := mdcv1.NewStreamServiceClient(conn)
	var grpcRates, httpRates []float64
	events := 0
	for r := 0; r < *runs; r++ {
		n, d := replayGRPC(client)
		grpcRates = append(grpcRates, float64(n)/d.Seconds())
		events = n
		n, d = replayHTTP()
		httpRates = append(httpRates, float64(n)/d.Seconds())
	}
	asOfRate := asOf(conn)
	asOfHTTPRate := asOfHTTP()
	fmt.Printf("replay of %d events: gRPC median %.0f events/s, HTTP NDJSON median %.0f events/s (%d runs each)\n",
		events, median(grpcRates), median(httpRates), *runs)
	fmt.Printf("as-of reads (GetQuote, sequential): gRPC %.0f requests/s, HTTP %.0f requests/s\n", asOfRate, asOfHTTPRate)
	fmt.Printf("ratio, each transport against itself: gRPC replay %.0fx the gRPC as-of request rate, HTTP replay %.0fx the HTTP as-of request rate\n",
		median(grpcRates)/asOfRate, median(httpRates)/asOfHTTPRate)
	lat := latency(conn)
	if len(lat) == 0 {
		log.Fatal("no deliveries")
	}
	fmt.Printf("watch latency, %d watchers, %d writes/s for %s: %d deliveries, p50 %.2f ms, p99 %.2f ms (write sent -> delivered)\n",
		*watchers, *rate, *duration, len(lat), float64(percentile(lat, 0.5).Microseconds())/1000, float64(percentile(lat, 0.99).Microseconds())/1000)
}

// Command grpcload drives mdc's collector writes over gRPC, without the
// gateway, and prints the request bodies the other benchmark tools send, so
// that every path of bench/run.sh carries the same data.
//
//	grpcload run -addr 127.0.0.1:50051 -token T -op shortlist -conns 8 \
//	    -warmup 5s -duration 20s -base 1000000000
//	grpcload payload -op shortlist -format json     # wrk body template
//	grpcload payload -op shortlist -format stored   # hex of the stored bytes
//
// Every request carries a distinct key (its timestamp is base + a counter,
// in seconds, zone UTC), so concurrent upserts never wait on each other's
// row locks and the rows stored can be counted afterwards.
//
// run prints one line:
//
//	RESULT requests=N ok=N errors=N seconds=S rps=R p50_us=.. p90_us=.. p99_us=.. max_us=.. codes=CODE:N,...
//
// Latencies are of the measured phase only (the warm-up is discarded).
package main

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
)

// timestampPlaceholder stands for the timestamp in JSON body templates.
const timestampPlaceholder = "@TIMESTAMP@"

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = runCommand(os.Args[2:])
	case "payload":
		err = payloadCommand(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcload:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: grpcload run|payload [flags]; see -h of each")
	os.Exit(2)
}

// operation is one collector write the tool knows how to send.
type operation struct {
	// request builds the request for the instant `ts` (seconds since epoch).
	request func(ts int64) proto.Message
	// call sends req on conn.
	call func(ctx context.Context, c mdcv1.CollectorServiceClient, req proto.Message) error
	// stored is what the server stores as its bytea payload (one row's worth).
	stored func() proto.Message
}

var operations = map[string]operation{
	"shortlist": {
		request: func(ts int64) proto.Message {
			return &mdcv1.SaveShortlistRequest{Data: &mdcv1.ShortlistData{
				Timestamp:     wallClock(ts),
				Timezone:      "UTC",
				ShortlistType: mdcv1.ShortlistType_TOP_GAINERS,
				Scope:         mdcv1.Scope_TOP_5,
				Entries:       shortlistEntries(20),
			}}
		},
		call: func(ctx context.Context, c mdcv1.CollectorServiceClient, req proto.Message) error {
			_, err := c.SaveShortlist(ctx, req.(*mdcv1.SaveShortlistRequest))
			return err
		},
		stored: func() proto.Message { return &mdcv1.Shortlist{Entries: shortlistEntries(20)} },
	},
	"nifty": {
		request: func(ts int64) proto.Message {
			return &mdcv1.SaveNiftyRequest{Data: &mdcv1.NiftyData{
				Timestamp:     wallClock(ts),
				Timezone:      "UTC",
				QuoteData:     fullQuote(24350.55),
				DayChangePerc: proto.Float64(0.42),
			}}
		},
		call: func(ctx context.Context, c mdcv1.CollectorServiceClient, req proto.Message) error {
			_, err := c.SaveNifty(ctx, req.(*mdcv1.SaveNiftyRequest))
			return err
		},
		stored: func() proto.Message { return fullQuote(24350.55) },
	},
	"quotes": {
		request: func(ts int64) proto.Message {
			return &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
				Timestamp: wallClock(ts),
				Timezone:  "UTC",
				Quotes:    quoteItems(300),
			}}
		},
		call: func(ctx context.Context, c mdcv1.CollectorServiceClient, req proto.Message) error {
			_, err := c.SaveQuotes(ctx, req.(*mdcv1.SaveQuotesRequest))
			return err
		},
		stored: func() proto.Message { return shortQuote(0) },
	},
}

func wallClock(ts int64) string {
	return time.Unix(ts, 0).UTC().Format("2006-01-02T15:04:05")
}

func shortlistEntries(n int) []*mdcv1.ShortlistEntry {
	entries := make([]*mdcv1.ShortlistEntry, n)
	for i := range entries {
		entries[i] = &mdcv1.ShortlistEntry{
			NseSymbol: fmt.Sprintf("STOCK%02d", i+1),
			Name:      fmt.Sprintf("Stock %02d Industries Limited", i+1),
			Price:     proto.Float64(100 + float64(i)*37.25),
		}
	}
	return entries
}

// fullQuote is a quote with every payload field set, five depth levels a side.
func fullQuote(price float64) *mdcv1.QuoteData {
	f := proto.Float64
	depth := &mdcv1.Depth{}
	for i := 0; i < 5; i++ {
		depth.Buy = append(depth.Buy, &mdcv1.DepthLevel{Price: f(price - 0.05*float64(i+1)), Quantity: f(float64(75 * (i + 1)))})
		depth.Sell = append(depth.Sell, &mdcv1.DepthLevel{Price: f(price + 0.05*float64(i+1)), Quantity: f(float64(50 * (i + 1)))})
	}
	return &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{
		LastPrice: f(price), DayChange: f(101.8), DayChangePerc: f(0.42), Volume: f(182736450),
		AveragePrice: f(price - 12.3), BidQuantity: f(1500), BidPrice: f(price - 0.05),
		UpperCircuitLimit: f(price * 1.1), LowerCircuitLimit: f(price * 0.9),
		HighTradeRange: f(price + 80), LowTradeRange: f(price - 95), ImpliedVolatility: f(13.7),
		LastTradeQuantity: f(75), MarketCap: f(1.9e14), OfferPrice: f(price + 0.05), OfferQuantity: f(900),
		OiDayChange: f(-1200), OiDayChangePercentage: f(-0.8), OpenInterest: f(150000),
		PreviousOpenInterest: f(151200), TotalBuyQuantity: f(2.4e6), TotalSellQuantity: f(2.1e6),
		Week_52High: f(26277.35), Week_52Low: f(21281.45), LastTradeTime: f(1735632000000),
		Ohlc:  &mdcv1.Ohlc{Open: f(price - 60), High: f(price + 80), Low: f(price - 95), Close: f(price - 101.8)},
		Depth: depth,
	}}
}

// shortQuote is the short form a collector posts per stock.
func shortQuote(i int) *mdcv1.QuoteData {
	f := proto.Float64
	price := 100 + float64(i)*3.5
	return &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{
		LastPrice: f(price), DayChangePerc: f(1.25), Volume: f(float64(100000 + i*1000)),
		Ohlc: &mdcv1.Ohlc{Open: f(price - 1), High: f(price + 2), Low: f(price - 3), Close: f(price - 1.2)},
	}}
}

func quoteItems(n int) []*mdcv1.QuoteItem {
	items := make([]*mdcv1.QuoteItem, n)
	for i := range items {
		items[i] = &mdcv1.QuoteItem{NseSymbol: fmt.Sprintf("SYM%04d", i+1), QuoteData: shortQuote(i)}
	}
	return items
}

// setTimestamp sets data.timestamp of a collector request to ts.
func setTimestamp(req proto.Message, ts int64) {
	m := req.ProtoReflect()
	data := m.Get(m.Descriptor().Fields().ByName("data")).Message()
	data.Set(data.Descriptor().Fields().ByName("timestamp"), protoreflect.ValueOfString(wallClock(ts)))
}

func lookup(name string) (operation, error) {
	op, ok := operations[name]
	if !ok {
		return op, fmt.Errorf("unknown -op %q; use shortlist, nifty or quotes", name)
	}
	return op, nil
}

// payloadCommand prints the JSON body template (format json) or the hex of
// the bytes one stored row holds (format stored, for pgbench).
func payloadCommand(args []string) error {
	fs := flag.NewFlagSet("payload", flag.ExitOnError)
	opName := fs.String("op", "shortlist", "shortlist, nifty or quotes")
	format := fs.String("format", "json", "json (body template) or stored (hex)")
	_ = fs.Parse(args)
	op, err := lookup(*opName)
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		const marker = 4102444799 // 2099-12-31T23:59:59, replaced below
		body, err := protojson.Marshal(op.request(marker))
		if err != nil {
			return err
		}
		text := strings.Replace(string(body), wallClock(marker), timestampPlaceholder, 1)
		if !strings.Contains(text, timestampPlaceholder) {
			return fmt.Errorf("no timestamp in %s", text)
		}
		fmt.Println(text)
	case "stored":
		b, err := proto.Marshal(op.stored())
		if err != nil {
			return err
		}
		fmt.Println(hex.EncodeToString(b))
	default:
		return fmt.Errorf("unknown -format %q", *format)
	}
	return nil
}

func runCommand(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:50051", "gRPC address of mdc-server (loopback only)")
	token := fs.String("token", "", "developer bearer token")
	opName := fs.String("op", "shortlist", "shortlist, nifty or quotes")
	conns := fs.Int("conns", 8, "concurrent callers (each waits for its answer)")
	channels := fs.Int("channels", 1, "gRPC connections the callers share")
	warmup := fs.Duration("warmup", 5*time.Second, "warm-up (not measured)")
	duration := fs.Duration("duration", 20*time.Second, "measured phase")
	base := fs.Int64("base", 1000000000, "first timestamp of the measured phase, seconds since epoch")
	warmBase := fs.Int64("warmup-base", 900000000, "first timestamp of the warm-up")
	maxRequests := fs.Int64("max-requests", 10000000, "hard cap on requests sent")
	_ = fs.Parse(args)
	op, err := lookup(*opName)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(*addr, "127.0.0.1:") && !strings.HasPrefix(*addr, "localhost:") {
		return fmt.Errorf("-addr must be on 127.0.0.1")
	}
	if *conns < 1 || *channels < 1 || *duration <= 0 || *warmup < 0 {
		return fmt.Errorf("-conns, -channels and -duration must be positive")
	}
	clients := make([]mdcv1.CollectorServiceClient, *channels)
	for i := range clients {
		cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer cc.Close()
		clients[i] = mdcv1.NewCollectorServiceClient(cc)
	}
	md := metadata.Pairs("authorization", "Bearer "+*token)

	var counter atomic.Int64
	start := time.Now()
	measureFrom := start.Add(*warmup)
	stopAt := measureFrom.Add(*duration)
	type sample struct {
		latencies []time.Duration
		codes     map[codes.Code]int
	}
	samples := make([]sample, *conns)
	var wg sync.WaitGroup
	for w := 0; w < *conns; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := clients[w%len(clients)]
			s := &samples[w]
			s.codes = map[codes.Code]int{}
			// One request per caller, re-stamped for each call.
			req := op.request(*base)
			for {
				n := counter.Add(1)
				if n > *maxRequests {
					return
				}
				if time.Now().Before(measureFrom) {
					setTimestamp(req, *warmBase+n)
				} else {
					setTimestamp(req, *base+n)
				}
				ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), md), 30*time.Second)
				t0 := time.Now()
				err := op.call(ctx, c, req)
				t1 := time.Now()
				cancel()
				if t1.After(stopAt) {
					return
				}
				if t0.Before(measureFrom) {
					continue
				}
				s.latencies = append(s.latencies, t1.Sub(t0))
				s.codes[status.Code(err)]++
			}
		}(w)
	}
	wg.Wait()

	var all []time.Duration
	total := map[codes.Code]int{}
	for _, s := range samples {
		all = append(all, s.latencies...)
		for c, n := range s.codes {
			total[c] += n
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) int64 {
		if len(all) == 0 {
			return 0
		}
		i := int(p * float64(len(all)-1))
		return all[i].Microseconds()
	}
	var codeList []string
	for c, n := range total {
		codeList = append(codeList, fmt.Sprintf("%s:%d", c, n))
	}
	sort.Strings(codeList)
	seconds := duration.Seconds()
	fmt.Printf("RESULT requests=%d ok=%d errors=%d seconds=%.1f rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d codes=%s\n",
		len(all), total[codes.OK], len(all)-total[codes.OK], seconds, float64(len(all))/seconds,
		pct(0.50), pct(0.90), pct(0.99), pct(1.0), strings.Join(codeList, ","))
	return nil
}

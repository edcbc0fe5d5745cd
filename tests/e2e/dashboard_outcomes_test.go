package e2e

import (
	"fmt"
	"reflect"
	"testing"
)

// A hand-built candle day on 2025-02-03 (IST). Entry at 10:00:30 at 100 with
// stop 98 and target 105; one quote a minute unless said otherwise.
//
//	OTGT  target first: 10:01 101, 10:02 105.5 (target), 10:03 90
//	OSTP  stop first:   10:01 100.5, 10:02 97.5 (stop), 10:03 110
//	OBTH  both in one:  10:01 100.2, 10:05:10 106 and 10:05:40 97 (stop wins)
//	ONON  neither:      10:00:10 120 (entry minute: ignored), 10:01 101.234,
//	                    10:02 103.456, 10:03 99  → maxGainPercentage 3.46
//	ONOC  no candles:   only a quote in the entry minute (10:00:05)
const dashOutcomeDay = "2025-02-03"

func dashStoreOutcomeDay(d *dash) {
	at := func(clock string) string { return dashOutcomeDay + "T" + clock }
	vol := 1000.0
	q := func(symbol, clock string, price float64) {
		vol += 10
		postQuotes(d.t, d.s, d.token, symbol, devQuote{at: at(clock), price: price, volume: vol})
	}
	q("OTGT", "10:01:00", 101)
	q("OTGT", "10:02:00", 105.5)
	q("OTGT", "10:03:00", 90)
	q("OSTP", "10:01:00", 100.5)
	q("OSTP", "10:02:00", 97.5)
	q("OSTP", "10:03:00", 110)
	q("OBTH", "10:01:00", 100.2)
	q("OBTH", "10:05:10", 106)
	q("OBTH", "10:05:40", 97)
	q("ONON", "10:00:10", 120)
	q("ONON", "10:01:00", 101.234)
	q("ONON", "10:02:00", 103.456)
	q("ONON", "10:03:00", 99)
	q("ONOC", "10:00:05", 100)
}

// dashOutcome is what an outcome must hold; nil pointers mean "absent".
type dashOutcome struct {
	achieved, stopped    any // bool, or nil when absent
	targetTime, stopTime any // string, or nil
	minTarget, minStop   any // float64, or nil
	maxGain              any // float64, or nil
}

func dashCheckOutcome(t *testing.T, what string, outcome map[string]any, want dashOutcome) {
	t.Helper()
	if outcome == nil {
		t.Fatalf("%s: no outcome", what)
	}
	if outcome["targetPrice"] != 105.0 || outcome["stopLossPrice"] != 98.0 {
		t.Errorf("%s: prices %v / %v, want 105 / 98", what, outcome["targetPrice"], outcome["stopLossPrice"])
	}
	got := dashOutcome{outcome["targetAchieved"], outcome["stopLossHit"], outcome["targetTime"],
		outcome["stopLossTime"], outcome["minutesToTarget"], outcome["minutesToStopLoss"],
		outcome["maxGainPercentage"]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: outcome %+v, want %+v", what, got, want)
	}
}

func TestDashboardOrderOutcomes(t *testing.T) {
	d := newDash(t)
	dashStoreOutcomeDay(d)
	run := d.createRun(map[string]any{"name": "outcomes"})
	runID := fmt.Sprint(run["id"])
	for _, symbol := range []string{"OTGT", "OSTP", "OBTH", "ONON", "ONOC"} {
		d.ok("POST", "/v1/dashboard/runs/"+runID+"/orders", map[string]any{
			"nseSymbol": symbol, "entryPrice": 100, "stopLossPrice": 98, "takeProfitPrice": 105,
			"datetime": dashOutcomeDay + "T10:00:30", "timezone": "Asia/Kolkata"})
	}
	answer := d.ok("GET", "/v1/dashboard/runs/"+runID+"/orders", nil)
	orders := asSlice(answer["orders"])
	if len(orders) != 5 {
		t.Fatalf("orders: %v", answer)
	}
	bySymbol := map[string]map[string]any{}
	for _, o := range orders {
		bySymbol[fmt.Sprint(asObject(o)["nseSymbol"])] = asObject(asObject(o)["outcome"])
	}
	dashCheckOutcome(t, "target first", bySymbol["OTGT"], dashOutcome{
		achieved: true, stopped: false, targetTime: "2025-02-03T04:32:00Z", minTarget: 2.0})
	dashCheckOutcome(t, "stop first", bySymbol["OSTP"], dashOutcome{
		achieved: false, stopped: true, stopTime: "2025-02-03T04:32:00Z", minStop: 2.0, maxGain: 0.5})
	dashCheckOutcome(t, "both in one candle", bySymbol["OBTH"], dashOutcome{
		achieved: false, stopped: true, stopTime: "2025-02-03T04:35:00Z", minStop: 5.0, maxGain: 6.0})
	dashCheckOutcome(t, "neither", bySymbol["ONON"], dashOutcome{
		achieved: false, stopped: false, maxGain: 3.46})
	dashCheckOutcome(t, "no candles", bySymbol["ONOC"], dashOutcome{})

	// A target from targetGainPercentage replaces the stored take-profit:
	// at 1% the neither-day reaches 101 at 10:01.
	answer = d.ok("GET", "/v1/dashboard/runs/"+runID+"/orders?targetGainPercentage=1", nil)
	for _, o := range asSlice(answer["orders"]) {
		if fmt.Sprint(asObject(o)["nseSymbol"]) != "ONON" {
			continue
		}
		outcome := asObject(asObject(o)["outcome"])
		if outcome["targetPrice"] != 101.0 || outcome["targetAchieved"] != true ||
			outcome["minutesToTarget"] != 1.0 || outcome["maxGainPercentage"] != nil {
			t.Errorf("targetGainPercentage=1: %v", outcome)
		}
	}
	body := d.fails(400, "GET", "/v1/dashboard/runs/"+runID+"/orders?targetGainPercentage=-1", nil)
	if !hasFieldViolation(body, "targetGainPercentage") {
		t.Errorf("negative targetGainPercentage: %v", body)
	}

	// The backtest clock hides the quotes from 10:02 on: the target-first
	// day has not reached its target yet.
	answer = d.ok("GET", "/v1/dashboard/runs/"+runID+"/orders", nil,
		"X-Current-Timestamp", dashOutcomeDay+"T10:02:00")
	for _, o := range asSlice(answer["orders"]) {
		if fmt.Sprint(asObject(o)["nseSymbol"]) == "OTGT" {
			dashCheckOutcome(t, "target first before the clock", asObject(asObject(o)["outcome"]), dashOutcome{
				achieved: false, stopped: false, maxGain: 1.0})
		}
	}
}

func TestDashboardShortlistOutcomes(t *testing.T) {
	d := newDash(t)
	dashStoreOutcomeDay(d)
	postShortlistPriced(t, d.s, d.token, "VOLUME_SHOCKERS", "FULL", dashOutcomeDay+"T10:00:30", 100,
		"OTGT", "OSTP", "OBTH", "ONON", "ONOC", "ONOQ")
	path := func(extra map[string]string) string {
		params := map[string]string{"type": "volume-shockers", "scope": "FULL",
			"datetime": dashOutcomeDay + "T10:00:45", "timezone": "Asia/Kolkata"}
		for k, v := range extra {
			params[k] = v
		}
		return query("/v1/dashboard/shortlists", params)
	}

	answer := d.ok("GET", path(map[string]string{"takeProfitPercentage": "5", "stopLossPercentage": "2"}), nil)
	if answer["timestamp"] != "2025-02-03T04:30:30Z" {
		t.Errorf("timestamp %v", answer["timestamp"])
	}
	entries := asSlice(answer["entries"])
	if len(entries) != 6 {
		t.Fatalf("entries: %v", answer)
	}
	var order []string
	bySymbol := map[string]map[string]any{}
	for _, e := range entries {
		symbol := fmt.Sprint(asObject(e)["nseSymbol"])
		order = append(order, symbol)
		bySymbol[symbol] = asObject(e)
	}
	if !reflect.DeepEqual(order, []string{"OTGT", "OSTP", "OBTH", "ONON", "ONOC", "ONOQ"}) {
		t.Errorf("entry order %v", order)
	}
	dashCheckOutcome(t, "target first", asObject(bySymbol["OTGT"]["outcome"]), dashOutcome{
		achieved: true, stopped: false, targetTime: "2025-02-03T04:32:00Z", minTarget: 2.0})
	dashCheckOutcome(t, "stop first", asObject(bySymbol["OSTP"]["outcome"]), dashOutcome{
		achieved: false, stopped: true, stopTime: "2025-02-03T04:32:00Z", minStop: 2.0})
	dashCheckOutcome(t, "both in one candle", asObject(bySymbol["OBTH"]["outcome"]), dashOutcome{
		achieved: false, stopped: true, stopTime: "2025-02-03T04:35:00Z", minStop: 5.0})
	dashCheckOutcome(t, "neither", asObject(bySymbol["ONON"]["outcome"]), dashOutcome{
		achieved: false, stopped: false})
	dashCheckOutcome(t, "no candles", asObject(bySymbol["ONOC"]["outcome"]), dashOutcome{})

	// Quotes as of the snapshot's instant: ONON's entry-minute quote (120),
	// ONOC's 10:00:05; ONOQ has none and keeps its entry without a quote.
	quote := asObject(bySymbol["ONON"]["quote"])
	if quote["timestamp"] != "2025-02-03T04:30:10Z" ||
		asObject(asObject(quote["quoteData"])["payload"])["last_price"] != 120.0 {
		t.Errorf("ONON quote %v", quote)
	}
	if bySymbol["OTGT"]["quote"] != nil {
		t.Errorf("OTGT has no quote by 10:00:30, got %v", bySymbol["OTGT"]["quote"])
	}
	if _, ok := bySymbol["ONOQ"]["quote"]; ok {
		t.Errorf("ONOQ quote should be absent: %v", bySymbol["ONOQ"])
	}
	if bySymbol["ONOQ"]["name"] != "ONOQ Ltd" || bySymbol["ONOQ"]["price"] != 100.0 {
		t.Errorf("ONOQ entry %v", bySymbol["ONOQ"])
	}

	// Without percentages, no outcomes.
	answer = d.ok("GET", path(nil), nil)
	for _, e := range asSlice(answer["entries"]) {
		if _, ok := asObject(e)["outcome"]; ok {
			t.Errorf("outcome without percentages: %v", e)
		}
	}
	// One percentage alone, or out of range, is 400 naming the parameter.
	body := d.fails(400, "GET", path(map[string]string{"takeProfitPercentage": "5"}), nil)
	if !hasFieldViolation(body, "stopLossPercentage") {
		t.Errorf("missing stopLossPercentage: %v", body)
	}
	body = d.fails(400, "GET", path(map[string]string{"stopLossPercentage": "2"}), nil)
	if !hasFieldViolation(body, "takeProfitPercentage") {
		t.Errorf("missing takeProfitPercentage: %v", body)
	}
	body = d.fails(400, "GET", path(map[string]string{"takeProfitPercentage": "-1", "stopLossPercentage": "101"}), nil)
	if !hasFieldViolation(body, "takeProfitPercentage") || !hasFieldViolation(body, "stopLossPercentage") {
		t.Errorf("out of range: %v", body)
	}
	d.fails(404, "GET", query("/v1/dashboard/shortlists", map[string]string{
		"type": "VOLUME_SHOCKERS", "scope": "FULL", "datetime": dashOutcomeDay + "T10:00:00"}), nil)
}

func TestDashboardCandlesAndQuoteTimeline(t *testing.T) {
	d := newDash(t)
	dashStoreOutcomeDay(d)
	answer := d.ok("GET", "/v1/dashboard/candles?symbol=OBTH&date="+dashOutcomeDay, nil)
	if answer["interval"] != "1minute" {
		t.Errorf("default interval: %v", answer["interval"])
	}
	candles := asSlice(answer["candles"])
	if len(candles) != 2 {
		t.Fatalf("candles: %v", answer)
	}
	second := asObject(candles[1])
	if second["time"] != "2025-02-03T04:35:00Z" || second["open"] != 106.0 || second["high"] != 106.0 ||
		second["low"] != 97.0 || second["close"] != 97.0 {
		t.Errorf("both-in-one candle: %v", second)
	}
	answer = d.ok("GET", "/v1/dashboard/candles?symbol=OBTH&interval=5minute&date="+dashOutcomeDay, nil)
	if len(asSlice(answer["candles"])) != 2 { // 10:00-10:05 and 10:05-10:10
		t.Errorf("5minute candles: %v", answer)
	}
	body := d.fails(400, "GET", "/v1/dashboard/candles?symbol=OBTH&interval=7minute&date=2025-02-30", nil)
	if !hasFieldViolation(body, "interval") || !hasFieldViolation(body, "date") {
		t.Errorf("bad interval and date: %v", body)
	}

	answer = d.ok("GET", "/v1/dashboard/quote-timelines?symbol=ONON&date="+dashOutcomeDay, nil)
	quotes := asSlice(answer["quotes"])
	if len(quotes) != 4 || asObject(quotes[0])["timestamp"] != "2025-02-03T04:30:10Z" ||
		asObject(quotes[3])["timestamp"] != "2025-02-03T04:33:00Z" {
		t.Errorf("timeline: %v", answer)
	}
	// Cut at the backtest clock.
	answer = d.ok("GET", "/v1/dashboard/quote-timelines?symbol=ONON&date="+dashOutcomeDay, nil,
		"X-Current-Timestamp", dashOutcomeDay+"T10:02:00")
	if len(asSlice(answer["quotes"])) != 2 {
		t.Errorf("timeline before the clock: %v", answer)
	}
	d.fails(403, "GET", "/v1/dashboard/quote-timelines?symbol=ONON&date="+dashOutcomeDay, nil,
		"X-Current-Timestamp", "2025-02-02T10:00:00")
	d.fails(400, "GET", "/v1/dashboard/quote-timelines?date="+dashOutcomeDay, nil)
}

// NIFTY on the dashboard (issue 21): the dashboard's candles and quote
// timeline of "NIFTY" (any case) are the index's, from the same code path
// as the developer's historical candles, with the same values.
func TestDashboardChartsNifty(t *testing.T) {
	s := StartStack(t) // a day of its own: no other test's NIFTY quotes
	_, token := s.NewDeveloper(t, "developer")
	d := &dash{t: t, s: s, token: token}
	const day = "2025-03-04"
	postNifty(t, s, token,
		devQuote{at: day + "T09:15:00", price: 22000.5},
		devQuote{at: day + "T09:15:30", price: 22010.0},
		devQuote{at: day + "T09:16:10", price: 21990.25},
	)
	for _, symbol := range []string{"NIFTY", "nifty"} {
		answer := d.ok("GET", "/v1/dashboard/candles?symbol="+symbol+"&date="+day, nil)
		candles := asSlice(answer["candles"])
		if answer["symbol"] != "NIFTY" || len(candles) != 2 {
			t.Fatalf("%s candles: %v", symbol, answer)
		}
		first := asObject(candles[0])
		if first["time"] != "2025-03-04T03:45:00Z" || first["open"] != 22000.5 || first["high"] != 22010.0 ||
			first["low"] != 22000.5 || first["close"] != 22010.0 {
			t.Errorf("first NIFTY candle: %v", first)
		}
		if second := asObject(candles[1]); second["open"] != 21990.25 || second["close"] != 21990.25 {
			t.Errorf("second NIFTY candle: %v", second)
		}
	}
	// The same candles as the developer's read of the index.
	developer := s.Do(t, "GET", "/v1/developer/historical-candles?symbol=NIFTY&interval=1minute&start_datetime="+
		day+"T09:15:00&end_datetime="+day+"T15:30:00", token, nil)
	expectStatus(t, developer, 200)
	dashboard := d.ok("GET", "/v1/dashboard/candles?symbol=NIFTY&date="+day, nil)
	if fmt.Sprint(developer.JSON["candles"]) != fmt.Sprint(dashboard["candles"]) {
		t.Errorf("developer %v, dashboard %v", developer.JSON["candles"], dashboard["candles"])
	}
	timeline := d.ok("GET", "/v1/dashboard/quote-timelines?symbol=Nifty&date="+day, nil)
	quotes := asSlice(timeline["quotes"])
	if timeline["nseSymbol"] != "NIFTY" || len(quotes) != 3 {
		t.Fatalf("NIFTY timeline: %v", timeline)
	}
	last := asObject(quotes[2])
	if last["nseSymbol"] != "NIFTY" || last["timestamp"] != "2025-03-04T03:46:10Z" ||
		asObject(asObject(last["quoteData"])["payload"])["last_price"] != 21990.25 {
		t.Errorf("last NIFTY quote: %v", last)
	}
}

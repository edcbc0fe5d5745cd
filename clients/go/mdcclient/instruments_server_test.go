package mdcclient_test

// The security master, corporate actions and adjusted reads against a real
// mdc-server (docs/api.md section 13): NSE-layout files this test writes
// (an equity list, a symbol change, corporate actions with a 1:1 bonus, a
// 1:5 split and a dividend) imported from disk, then adjusted candles,
// timelines and cross-sections checked against values computed by hand,
// point in time (the backtest clock) included.

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// Tuesday to Friday: a bonus (1:1) on d2, a split (Rs 10 to Rs 2) on d3, a
// Rs 4 dividend on d4; reads under the backtest clock of the Monday after.
const (
	instrD1, instrD2, instrD3, instrD4, instrAfter = "2036-01-01", "2036-01-02", "2036-01-03", "2036-01-04", "2036-01-07"
)

// One quote a day: the close and the day's volume as stored; by hand, split
// (before d2 x 1/2, before d3 x 1/5, volumes inversely) and all (also
// x (1 - 4/100) before d4, 100 being d3's close).
var (
	instrStored = [][2]float64{{1000, 100}, {500, 200}, {100, 1000}, {98, 1000}}
	instrSplit  = [][2]float64{{100, 1000}, {100, 1000}, {100, 1000}, {98, 1000}}
	instrAll    = [][2]float64{{96, 1000}, {96, 1000}, {96, 1000}, {98, 1000}}
)

func TestInstrumentsCorporateActionsAndAdjustedReadsAgainstTheServer(t *testing.T) {
	s := startMdcServer(t)
	admin := s.dial(t, s.adminToken)
	conn := s.dial(t, s.newDeveloper(t, "go-instr-"))
	ctx := testContext(t)
	developer := mdcv1.NewDeveloperServiceClient(conn)
	tag := strings.ToUpper(randomHex(t, 3))
	oldSymbol, symbol, stranger := "GOOLD"+tag, "GONEW"+tag, "GONONE"+tag
	isin := isinWithCheckDigit("INE" + strings.ToUpper(randomHex(t, 4)))
	name := "Goinstr " + tag + " Limited"
	dir := t.TempDir()
	file := func(name, text string) string { return writeTestFile(t, dir, name, text) }

	equityList := file("EQUITY_L.csv", "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n"+
		fmt.Sprintf("%s,%s,EQ,06-OCT-2020,10,1,%s,10\n%s,Nobody,EQ,06-OCT-2020,10,1,INE000000000,10\n", symbol, name, isin, stranger))
	listed, err := mdcclient.ImportInstrumentsFile(ctx, admin, mdcclient.InstrumentFileEquityList, equityList)
	if err != nil || listed.GetImported() != 1 || len(listed.GetRejected()) != 1 || listed.GetRejected()[0].GetLine() != 3 {
		t.Fatalf("equity list: %v %v", listed, err)
	}
	if again, err := mdcclient.ImportInstrumentsFile(ctx, admin, mdcclient.InstrumentFileEquityList, equityList); err != nil || again.GetUnchanged() != 1 {
		t.Fatalf("equity list again: %v %v", again, err)
	}
	changes := file("symbolchange.csv", fmt.Sprintf("SM_NAME_OF_COMPANY,SM_KEY_SYMBOL,SM_NEW_SYMBOL,SM_APPLICABLE_FROM\n%s,%s,%s,02-JUN-2021\n", name, oldSymbol, symbol))
	if renamed, err := mdcclient.ImportInstrumentsFile(ctx, admin, mdcclient.InstrumentFileSymbolChanges, changes); err != nil || renamed.GetImported() != 1 {
		t.Fatalf("symbol changes: %v %v", renamed, err)
	}
	actionsFile := file("CF-CA-equities.csv", "SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n"+
		fmt.Sprintf("%s,%s,EQ,Bonus 1:1,10,02-Jan-2036,-\n", symbol, name)+
		fmt.Sprintf("%s,%s,EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,10,03-Jan-2036,-\n", symbol, name)+
		fmt.Sprintf("%s,%s,EQ,Interim Dividend - Rs 4 Per Share,2,04-Jan-2036,-\n", symbol, name)+
		fmt.Sprintf("%s,%s,EQ,Annual General Meeting,2,04-Jan-2036,-\n", symbol, name)+
		fmt.Sprintf("%s,Nobody,EQ,Bonus 1:1,10,02-Jan-2036,-\n", stranger))
	imported, err := mdcclient.ImportCorporateActionsFile(ctx, admin, actionsFile)
	if err != nil || imported.GetImported() != 3 || len(imported.GetIgnored()) != 1 || imported.GetIgnored()[0].GetLine() != 5 ||
		len(imported.GetRejected()) != 1 || imported.GetRejected()[0].GetLine() != 6 {
		t.Fatalf("corporate actions: %v %v", imported, err)
	}
	if _, err := mdcclient.ImportCorporateActionsFile(ctx, admin, changes); mdcclient.ErrorOf(err) == nil || mdcclient.ErrorOf(err).Code != codes.InvalidArgument {
		t.Errorf("a symbol-change list as corporate actions: %v", err)
	} else if _, ok := mdcclient.ErrorOf(err).Violation("csv"); !ok {
		t.Errorf("violations %+v", mdcclient.ErrorOf(err).FieldViolations)
	}
	if _, err := mdcclient.ImportCorporateActionsFile(ctx, admin, filepath.Join(dir, "missing.csv")); mdcclient.ErrorOf(err) == nil {
		t.Error("a missing file was sent")
	} else if _, ok := mdcclient.ErrorOf(err).Violation("path"); !ok {
		t.Errorf("missing file: %v", err)
	}
	if _, err := mdcclient.ImportCorporateActionsFile(ctx, conn, actionsFile); codeOf(err) != codes.PermissionDenied {
		t.Errorf("a developer's import: %v", err)
	}

	// The instrument by its old symbol, and the symbol it had on each day.
	found, err := developer.ListInstruments(ctx, &mdcv1.ListInstrumentsRequest{Symbol: oldSymbol})
	if err != nil || len(found.GetInstruments()) != 1 {
		t.Fatalf("ListInstruments: %v %v", found, err)
	}
	inst := found.GetInstruments()[0]
	if inst.GetIsin() != isin || inst.GetSymbol() != symbol || inst.GetListingDate() != "2020-10-06" || inst.GetFaceValue() != 10 {
		t.Errorf("instrument %v", inst)
	}
	for day, want := range map[string]string{"2020-10-05": "", "2020-10-06": oldSymbol, "2021-06-01": oldSymbol, "2021-06-02": symbol, instrD4: symbol} {
		if got := mdcclient.SymbolOn(inst, day); got != want {
			t.Errorf("SymbolOn(%s) = %q, want %q", day, got, want)
		}
	}

	saveDailyQuotes(ctx, t, conn, symbol, []string{instrD1, instrD2, instrD3, instrD4})
	actions, err := developer.ListCorporateActions(ctx, &mdcv1.ListCorporateActionsRequest{Symbol: oldSymbol})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var factors [][2]float64
	for _, a := range actions.GetActions() {
		kinds = append(kinds, a.GetExDate()+" "+a.GetKind())
		factors = append(factors, [2]float64{a.GetPriceFactor(), a.GetVolumeFactor()})
	}
	if strings.Join(kinds, ",") != instrD2+" bonus,"+instrD3+" split,"+instrD4+" dividend" {
		t.Errorf("actions %v", kinds)
	}
	expectPairs(t, "factors", factors, [][2]float64{{0.5, 2}, {0.2, 5}, {0.96, 1}})

	candles := func(ctx context.Context, adjustment, end string) [][2]float64 {
		series, err := developer.GetHistoricalCandles(ctx, &mdcv1.GetHistoricalCandlesRequest{Symbol: symbol, Interval: "1day",
			StartDatetime: instrD1 + "T00:00:00", EndDatetime: end, Adjustment: adjustment})
		if err != nil {
			t.Fatalf("candles %s: %v", adjustment, err)
		}
		if adjustment != "" && series.GetAdjustment() != adjustment {
			t.Errorf("the answer's adjustment %q, want %q", series.GetAdjustment(), adjustment)
		}
		var got [][2]float64
		for _, c := range series.GetCandles() {
			got = append(got, [2]float64{c.GetClose(), c.GetVolume()})
		}
		return got
	}
	end := instrAfter + "T00:00:00"
	// Today (years before the ex-dates) no action is known yet.
	expectPairs(t, "split today", candles(ctx, mdcclient.AdjustmentSplit, end), instrStored)
	later := mdcclient.WithBacktestClock(ctx, mustIST(t, instrAfter+"T12:00:00"))
	expectPairs(t, "raw", candles(later, "", end), instrStored)
	expectPairs(t, "split", candles(later, mdcclient.AdjustmentSplit, end), instrSplit)
	expectPairs(t, "all", candles(later, mdcclient.AdjustmentAll, end), instrAll)
	// Point in time: on d3 the bonus and the split are known, the dividend not yet.
	onD3 := mdcclient.WithBacktestClock(ctx, mustIST(t, instrD3+"T12:00:00"))
	expectPairs(t, "all on d3", candles(onD3, mdcclient.AdjustmentAll, instrD3+"T11:00:00"), instrSplit[:3])

	var timeline [][2]float64
	for q, err := range mdcclient.AllQuotes(later, conn, &mdcv1.GetQuoteTimelineRequest{Symbol: symbol, StartDatetime: instrD1 + "T00:00:00",
		EndDatetime: end, PageSize: 2, Adjustment: mdcclient.AdjustmentAll}) {
		if err != nil {
			t.Fatal(err)
		}
		timeline = append(timeline, [2]float64{q.GetQuoteData().GetPayload().GetLastPrice(), q.GetQuoteData().GetPayload().GetVolume()})
	}
	expectPairs(t, "timeline all", timeline, instrAll)
	xs, err := mdcclient.QuotesAt(later, conn, &mdcv1.GetQuotesRequest{Symbols: []string{symbol}, Datetime: instrD1 + "T15:00:00", Adjustment: mdcclient.AdjustmentSplit})
	if err != nil || len(xs.GetQuotes()) != 1 || xs.GetAdjustment() != mdcclient.AdjustmentSplit {
		t.Fatalf("cross-section: %v %v", xs, err)
	}
	p := xs.GetQuotes()[0].GetQuoteData().GetPayload()
	expectPairs(t, "cross-section split", [][2]float64{{p.GetLastPrice(), p.GetVolume()}}, instrSplit[:1])
	bars, err := developer.GetCandlesOfSymbols(later, &mdcv1.GetCandlesOfSymbolsRequest{Symbols: []string{symbol}, Interval: "1day",
		StartDatetime: instrD1 + "T00:00:00", EndDatetime: end, Adjustment: mdcclient.AdjustmentAll})
	if err != nil || len(bars.GetSeries()) != 1 {
		t.Fatalf("candles of symbols: %v %v", bars, err)
	}
	var barPairs [][2]float64
	for _, c := range bars.GetSeries()[0].GetCandles() {
		barPairs = append(barPairs, [2]float64{c.GetClose(), c.GetVolume()})
	}
	expectPairs(t, "candles of symbols all", barPairs, instrAll)

	_, err = developer.GetHistoricalCandles(later, &mdcv1.GetHistoricalCandlesRequest{Symbol: symbol, Interval: "1day",
		StartDatetime: instrD1 + "T00:00:00", EndDatetime: end, Adjustment: "dividend"})
	if e := mdcclient.ErrorOf(err); e == nil || e.Code != codes.InvalidArgument {
		t.Errorf("adjustment=dividend: %v", err)
	} else if _, ok := e.Violation("adjustment"); !ok {
		t.Errorf("violations %+v", e.FieldViolations)
	}
}

// writeTestFile writes an NSE-layout file into dir and returns its path.
func writeTestFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// saveDailyQuotes stores one quote of symbol at 10:00 IST of each day:
// instrStored's close and volume of the same index.
func saveDailyQuotes(ctx context.Context, t *testing.T, conn grpc.ClientConnInterface, symbol string, days []string) {
	t.Helper()
	for i, day := range days {
		_, err := mdcv1.NewCollectorServiceClient(conn).SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
			Timestamp: day + "T10:00:00", Quotes: []*mdcv1.QuoteItem{{NseSymbol: symbol, QuoteData: &mdcv1.QuoteData{
				Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(instrStored[i][0]), Volume: proto.Float64(instrStored[i][1])}}}}}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func expectPairs(t *testing.T, what string, got, want [][2]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %v, want %v", what, got, want)
		return
	}
	for i := range got {
		for j := range 2 {
			if math.Abs(got[i][j]-want[i][j]) > 1e-9 {
				t.Errorf("%s: %v, want %v", what, got, want)
				return
			}
		}
	}
}

func mustIST(t *testing.T, wall string) time.Time {
	t.Helper()
	at, err := mdcclient.ParseWallClock(wall, "Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func codeOf(err error) codes.Code {
	if e := mdcclient.ErrorOf(err); e != nil {
		return e.Code
	}
	return codes.OK
}

// isinWithCheckDigit completes an ISIN's 11 characters with its ISO 6166
// check digit (letters as 10-35, Luhn over the digits).
func isinWithCheckDigit(body string) string {
	var digits strings.Builder
	for _, c := range body {
		if c >= 'A' && c <= 'Z' {
			fmt.Fprintf(&digits, "%d", c-'A'+10)
		} else {
			digits.WriteRune(c)
		}
	}
	d, total := digits.String(), 0
	for i := range len(d) {
		n := int(d[len(d)-1-i]-'0') * (2 - i%2)
		if n > 9 {
			n -= 9
		}
		total += n
	}
	return body + fmt.Sprint((10-total%10)%10)
}

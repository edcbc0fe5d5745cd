package mdcclient_test

// Adjusted exports through the export iterators (docs/api.md section 13.6)
// and an admin's entry of one corporate action through mdcv1 (section
// 13.7), against a real mdc-server: a 1:1 bonus and a Rs 10 -> Rs 2 split
// imported from an NSE-layout file, a Rs 4 dividend entered with
// AdminService.CreateCorporateAction, one quote a day over four days, and
// the exported closes and volumes checked against values computed by hand.

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// Tuesday to Friday: the bonus on d2, the split on d3, the dividend on d4
// (the stored, split and all values are instrStored, instrSplit, instrAll).
const (
	expD1, expD2, expD3, expD4, expAfter = "2036-02-05", "2036-02-06", "2036-02-07", "2036-02-08", "2036-02-11"
)

func TestAdjustedExportsAndOneEnteredActionAgainstTheServer(t *testing.T) {
	s := startMdcServer(t)
	adminConn := s.dial(t, s.adminToken)
	conn := s.dial(t, s.newDeveloper(t, "go-adjexp-"))
	ctx := testContext(t)
	admin := mdcv1.NewAdminServiceClient(adminConn)
	tag := strings.ToUpper(randomHex(t, 3))
	symbol := "GOEXP" + tag
	isin := isinWithCheckDigit("INE" + strings.ToUpper(randomHex(t, 4)))
	name := "Goexport " + tag + " Limited"
	dir := t.TempDir()
	file := func(name, text string) string { return writeTestFile(t, dir, name, text) }
	if listed, err := mdcclient.ImportInstrumentsFile(ctx, adminConn, mdcclient.InstrumentFileEquityList, file("EQUITY_L.csv",
		"SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n"+
			fmt.Sprintf("%s,%s,EQ,06-OCT-2020,10,1,%s,10\n", symbol, name, isin))); err != nil || listed.GetImported() != 1 {
		t.Fatalf("equity list: %v %v", listed, err)
	}
	if imported, err := mdcclient.ImportCorporateActionsFile(ctx, adminConn, file("CF-CA-equities.csv",
		"SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n"+
			fmt.Sprintf("%s,%s,EQ,Bonus 1:1,10,06-Feb-2036,-\n", symbol, name)+
			fmt.Sprintf("%s,%s,EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,10,07-Feb-2036,-\n", symbol, name))); err != nil || imported.GetImported() != 2 {
		t.Fatalf("corporate actions: %v %v", imported, err)
	}
	saveDailyQuotes(ctx, t, conn, symbol, []string{expD1, expD2, expD3, expD4})

	// The dividend entered by the admin; its default description is NSE's
	// wording, and entering it again changes nothing.
	dividend := &mdcv1.CreateCorporateActionRequest{Symbol: symbol, Kind: "dividend", ExDate: expD4, Amount: 4}
	entered, err := admin.CreateCorporateAction(ctx, dividend)
	if err != nil || !entered.GetCreated() || entered.GetAction().GetIsin() != isin || entered.GetAction().GetDescription() != "Dividend Rs 4" ||
		entered.GetAction().GetKind() != "dividend" || entered.GetAction().GetAmount() != 4 {
		t.Fatalf("CreateCorporateAction: %v %v", entered, err)
	}
	if again, err := admin.CreateCorporateAction(ctx, &mdcv1.CreateCorporateActionRequest{Isin: isin, Kind: "dividend", ExDate: expD4, Amount: 4}); err != nil || again.GetCreated() {
		t.Errorf("entered again: %v %v", again, err)
	}
	if _, err := admin.CreateCorporateAction(ctx, &mdcv1.CreateCorporateActionRequest{Isin: isin, Kind: "dividend", ExDate: expD4, Amount: 5,
		Description: "Dividend Rs 4"}); codeOf(err) != codes.FailedPrecondition {
		t.Errorf("the same key with another amount: %v", err)
	}
	if _, err := admin.CreateCorporateAction(ctx, &mdcv1.CreateCorporateActionRequest{Symbol: symbol, Kind: "dividend", ExDate: expD4}); codeOf(err) != codes.InvalidArgument {
		t.Errorf("no amount: %v", err)
	} else if _, ok := mdcclient.ErrorOf(err).Violation("amount"); !ok {
		t.Errorf("no amount: violations %+v", mdcclient.ErrorOf(err).FieldViolations)
	}
	if _, err := mdcv1.NewAdminServiceClient(conn).CreateCorporateAction(ctx, dividend); codeOf(err) != codes.PermissionDenied {
		t.Errorf("a developer's entry: %v", err)
	}

	later := mdcclient.WithBacktestClock(ctx, mustIST(t, expAfter+"T12:00:00"))
	candles := func(records func(yield func(*mdcv1.ExportRecord, error) bool), adjustment string) [][2]float64 {
		t.Helper()
		var got [][2]float64
		for rec, err := range records {
			if err != nil {
				t.Fatalf("export %s: %v", adjustment, err)
			}
			if rec.GetAdjustment() != adjustment {
				t.Errorf("record's adjustment %q, want %q", rec.GetAdjustment(), adjustment)
			}
			if c := rec.GetCandle(); c != nil {
				got = append(got, [2]float64{c.GetCandle().GetClose(), c.GetCandle().GetVolume()})
			} else {
				p := rec.GetQuote().GetQuoteData().GetPayload()
				got = append(got, [2]float64{p.GetLastPrice(), p.GetVolume()})
			}
		}
		return got
	}
	expectPairs(t, "candle export split", candles(mdcclient.ExportCandles(later, conn, &mdcv1.ExportCandlesRequest{StartDate: expD1, EndDate: expD4,
		Symbols: []string{symbol}, Interval: "1day", Adjustment: mdcclient.AdjustmentSplit}), mdcclient.AdjustmentSplit), instrSplit)
	expectPairs(t, "quote export all", candles(mdcclient.ExportQuotes(later, conn, &mdcv1.ExportQuotesRequest{StartDate: expD1, EndDate: expD4,
		Symbols: []string{symbol}, Adjustment: mdcclient.AdjustmentAll}), mdcclient.AdjustmentAll), instrAll)
	expectPairs(t, "quote export raw", candles(mdcclient.ExportQuotes(later, conn, &mdcv1.ExportQuotesRequest{StartDate: expD1, EndDate: expD4,
		Symbols: []string{symbol}}), ""), instrStored)
	// Point in time: on d3 the dividend is not known yet.
	onD3 := mdcclient.WithBacktestClock(ctx, mustIST(t, expD3+"T12:00:00"))
	expectPairs(t, "candle export all on d3", candles(mdcclient.ExportCandles(onD3, conn, &mdcv1.ExportCandlesRequest{StartDate: expD1, EndDate: expD2,
		Symbols: []string{symbol}, Interval: "1day", Adjustment: mdcclient.AdjustmentAll}), mdcclient.AdjustmentAll), instrSplit[:2])

	var refused error
	for _, err := range mdcclient.ExportQuotes(later, conn, &mdcv1.ExportQuotesRequest{StartDate: expD1, EndDate: expD4, Adjustment: mdcclient.AdjustmentSplit}) {
		refused = err
		break
	}
	if e := mdcclient.ErrorOf(refused); e == nil || e.Code != codes.InvalidArgument {
		t.Errorf("an adjusted export without symbols: %v", refused)
	} else if _, ok := e.Violation("adjustment"); !ok {
		t.Errorf("violations %+v", e.FieldViolations)
	}
}

package mdcclient

// The security master, corporate actions and adjusted reads (docs/api.md
// section 13). The RPCs are called through mdcv1's generated clients; this
// file adds what they leave to the caller: the adjustment names, the
// imports of NSE's files from disk, and which symbol an instrument had on
// a given day.
//
//	series, err := mdcv1.NewDeveloperServiceClient(conn).GetHistoricalCandles(ctx, &mdcv1.GetHistoricalCandlesRequest{
//		Symbol: "INFY", Interval: "1day", StartDatetime: "2024-01-01T00:00:00", EndDatetime: "2024-12-31T00:00:00",
//		Adjustment: mdcclient.AdjustmentSplit})

import (
	"context"
	"fmt"
	"os"

	"google.golang.org/grpc"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// The values of the `adjustment` field of GetHistoricalCandlesRequest,
// GetCandlesOfSymbolsRequest, GetQuoteTimelineRequest and GetQuotesRequest
// (empty is raw). Split applies splits, bonuses and consolidations; all
// also dividends and rights issues; only actions whose ex-date is on or
// before the read's day (today, or the backtest clock's) are applied.
const (
	AdjustmentRaw   = "raw"
	AdjustmentSplit = "split"
	AdjustmentAll   = "all"
)

// The kinds of AdminService.ImportInstruments: NSE's EQUITY_L.csv and its
// symbol-change list.
const (
	InstrumentFileEquityList    = "equity_list"
	InstrumentFileSymbolChanges = "symbol_changes"
)

// ImportInstrumentsFile sends NSE's equity list or symbol-change list at
// path (kind: InstrumentFileEquityList or InstrumentFileSymbolChanges) to
// AdminService.ImportInstruments (admin token). Rows that cannot be read
// come back in Rejected with their line and reason, the others are
// imported; importing the same file again changes nothing.
func ImportInstrumentsFile(ctx context.Context, conn grpc.ClientConnInterface, kind, path string, opts ...grpc.CallOption) (*mdcv1.ImportFileResponse, error) {
	csv, err := readNSEFile(path)
	if err != nil {
		return nil, err
	}
	return mdcv1.NewAdminServiceClient(conn).ImportInstruments(ctx, &mdcv1.ImportInstrumentsRequest{Kind: kind, Csv: csv}, opts...)
}

// ImportCorporateActionsFile sends NSE's corporate-actions file at path to
// AdminService.ImportCorporateActions (admin token): rows not understood
// come back in Rejected, rows without a price effect (an AGM) in Ignored.
func ImportCorporateActionsFile(ctx context.Context, conn grpc.ClientConnInterface, path string, opts ...grpc.CallOption) (*mdcv1.ImportFileResponse, error) {
	csv, err := readNSEFile(path)
	if err != nil {
		return nil, err
	}
	return mdcv1.NewAdminServiceClient(conn).ImportCorporateActions(ctx, &mdcv1.ImportCorporateActionsRequest{Csv: csv}, opts...)
}

// readNSEFile reads a whole file: NSE's files are small (EQUITY_L.csv is
// about 250 KB) and an import RPC takes the file in one message.
func readNSEFile(path string) ([]byte, error) {
	csv, err := os.ReadFile(path)
	if err != nil {
		return nil, InvalidArgument("path", fmt.Sprintf("cannot read the file: %v", err))
	}
	return csv, nil
}

// SymbolOn is the symbol inst had on the trading day day (YYYY-MM-DD, as
// TradingDate gives), from its symbol history: the period with ValidFrom
// <= day < ValidTo (an empty ValidTo is open). "" when it had none then.
func SymbolOn(inst *mdcv1.InstrumentInfo, day string) string {
	for _, period := range inst.GetSymbols() {
		if period.GetValidFrom() <= day && (period.GetValidTo() == "" || day < period.GetValidTo()) {
			return period.GetSymbol()
		}
	}
	return ""
}

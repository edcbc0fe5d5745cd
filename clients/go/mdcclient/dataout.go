package mdcclient

// Data out (docs/api.md section 9.3 "Reads of many symbols" and section
// 11): the cross-section of many symbols as of one instant, and iterators
// over the export streams.
//
//	for rec, err := range mdcclient.ExportQuotes(ctx, conn, &mdcv1.ExportQuotesRequest{StartDate: "2025-01-02"}) {
//		if err != nil { ... } // a gRPC status; the iteration ends after it
//		fmt.Println(rec.GetTradingDay(), rec.GetQuote().GetNseSymbol())
//	}

import (
	"context"
	"errors"
	"io"
	"iter"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// QuotesAt is DeveloperService.GetQuotes with every page followed: with
// req.Symbols, the one answer (quotes in the order asked, the others in
// Missing); without, every symbol quoted on the trading day by req.Datetime,
// the pages' quotes in one answer (NextPageToken empty). Each page is one
// call, retried like any read.
func QuotesAt(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.GetQuotesRequest, opts ...grpc.CallOption) (*mdcv1.QuoteCrossSection, error) {
	var all *mdcv1.QuoteCrossSection
	for page, err := range allItems(ctx, req, mdcv1.NewDeveloperServiceClient(conn).GetQuotes,
		func(resp *mdcv1.QuoteCrossSection) []*mdcv1.QuoteCrossSection {
			return []*mdcv1.QuoteCrossSection{resp}
		}, opts) {
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = proto.Clone(page).(*mdcv1.QuoteCrossSection)
			continue
		}
		all.Quotes = append(all.Quotes, page.GetQuotes()...)
		all.Missing = append(all.Missing, page.GetMissing()...)
	}
	all.NextPageToken = ""
	return all, nil
}

// ExportQuotes yields every record of ExportService.ExportQuotes (stock
// quotes of up to 31 trading days, in time order) as the server sends them.
func ExportQuotes(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ExportQuotesRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.ExportRecord, error] {
	return exportRecords(ctx, req, mdcv1.NewExportServiceClient(conn).ExportQuotes, opts)
}

// ExportNifty yields every record of ExportService.ExportNifty.
func ExportNifty(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ExportNiftyRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.ExportRecord, error] {
	return exportRecords(ctx, req, mdcv1.NewExportServiceClient(conn).ExportNifty, opts)
}

// ExportShortlists yields every record of ExportService.ExportShortlists.
func ExportShortlists(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ExportShortlistsRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.ExportRecord, error] {
	return exportRecords(ctx, req, mdcv1.NewExportServiceClient(conn).ExportShortlists, opts)
}

// ExportCandles yields every record of ExportService.ExportCandles (by
// symbol, then time).
func ExportCandles(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ExportCandlesRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.ExportRecord, error] {
	return exportRecords(ctx, req, mdcv1.NewExportServiceClient(conn).ExportCandles, opts)
}

// exportRecords yields the records of each message of an export stream. An
// error (opening the stream or a later status) is yielded once, with a nil
// record, and ends the iteration; breaking out of the loop cancels the
// stream, and the server stops reading. An export is not resumed: ask again
// for the days not received.
func exportRecords[Req proto.Message](ctx context.Context, req Req,
	open func(context.Context, Req, ...grpc.CallOption) (grpc.ServerStreamingClient[mdcv1.ExportChunk], error),
	opts []grpc.CallOption) iter.Seq2[*mdcv1.ExportRecord, error] {
	return func(yield func(*mdcv1.ExportRecord, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stream, err := open(ctx, req, opts...)
		if err != nil {
			yield(nil, err)
			return
		}
		for {
			chunk, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			for _, rec := range chunk.GetRecords() {
				if !yield(rec, nil) {
					return
				}
			}
		}
	}
}

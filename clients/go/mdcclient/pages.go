package mdcclient

// Iterators over every item of the paged reads (AIP-158: a request with
// page_size and page_token, an answer with next_page_token; docs/api.md
// section 1, "Lists"), so callers do not page by hand:
//
//	for run, err := range mdcclient.AllRuns(ctx, conn, &mdcv1.ListRunsRequest{Tag: "momentum"}) {
//		if err != nil { ... } // a gRPC status; the iteration ends after it
//		fmt.Println(run.GetId())
//	}
//
// Each page is one unary call, which Dial's connection retries like any
// other read. The request's other fields (and its page_size: absent means
// the server's default, 100) apply to every page; its page_token, when set,
// is where the iteration starts. The request itself is not changed.

import (
	"context"
	"fmt"
	"iter"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// AllDevelopers yields every developer (AdminService.ListDevelopers), by
// ascending id; an admin token is needed.
func AllDevelopers(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ListDevelopersRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.Developer, error] {
	return allItems(ctx, req, mdcv1.NewAdminServiceClient(conn).ListDevelopers, (*mdcv1.ListDevelopersResponse).GetDevelopers, opts)
}

// AllRuns yields the caller's runs (DashboardService.ListRuns), newest
// first, only those with req.Tag when it is set.
func AllRuns(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ListRunsRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.Run, error] {
	return allItems(ctx, req, mdcv1.NewDashboardServiceClient(conn).ListRuns, (*mdcv1.ListRunsResponse).GetRuns, opts)
}

// AllOrders yields the orders of run req.RunId (DashboardService.ListOrders),
// ascending by time, each with its outcome.
func AllOrders(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ListOrdersRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.Order, error] {
	return allItems(ctx, req, mdcv1.NewDashboardServiceClient(conn).ListOrders, (*mdcv1.ListOrdersResponse).GetOrders, opts)
}

// AllQuotes yields the stored quotes of req.Symbol in [start, end)
// (DeveloperService.GetQuoteTimeline), ascending by timestamp.
func AllQuotes(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.GetQuoteTimelineRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.StockQuote, error] {
	return allItems(ctx, req, mdcv1.NewDeveloperServiceClient(conn).GetQuoteTimeline, (*mdcv1.QuoteTimeline).GetQuotes, opts)
}

// AllNiftyQuotes yields the stored NIFTY 50 quotes in [start, end)
// (DeveloperService.GetNiftyTimeline), ascending by timestamp.
func AllNiftyQuotes(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.GetNiftyTimelineRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.NiftyQuote, error] {
	return allItems(ctx, req, mdcv1.NewDeveloperServiceClient(conn).GetNiftyTimeline, (*mdcv1.NiftyTimeline).GetQuotes, opts)
}

// AllQuotesAt yields the quotes of the cross-section of req.Symbols, or of
// every symbol quoted that day without them (DeveloperService.GetQuotes),
// across its pages; QuotesAt gives them in one answer with the symbols
// that have none.
func AllQuotesAt(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.GetQuotesRequest, opts ...grpc.CallOption) iter.Seq2[*mdcv1.StockQuote, error] {
	return allItems(ctx, req, mdcv1.NewDeveloperServiceClient(conn).GetQuotes, (*mdcv1.QuoteCrossSection).GetQuotes, opts)
}

// allItems yields the items of each page of a paged read, calling it again
// with the answer's next_page_token until that is empty. An error is yielded
// once, with the zero item, and ends the iteration; so does the caller
// breaking out of the loop, without another call.
func allItems[Req proto.Message, Resp proto.Message, Item any](ctx context.Context, req Req,
	call func(context.Context, Req, ...grpc.CallOption) (Resp, error),
	items func(Resp) []Item, opts []grpc.CallOption) iter.Seq2[Item, error] {
	return func(yield func(Item, error) bool) {
		page := req.ProtoReflect().New().Interface().(Req)
		if req.ProtoReflect().IsValid() {
			page = proto.Clone(req).(Req)
		}
		for {
			sent := stringField(page, "page_token")
			resp, err := call(ctx, page, opts...)
			if err != nil {
				var zero Item
				yield(zero, err)
				return
			}
			for _, item := range items(resp) {
				if !yield(item, nil) {
					return
				}
			}
			next := stringField(resp, "next_page_token")
			if next == "" {
				return
			}
			if next == sent {
				// A server bug would otherwise make this loop for ever.
				var zero Item
				yield(zero, status.Error(codes.Internal, fmt.Sprintf(
					"mdcclient: the server answered page token %q with the same token", sent)))
				return
			}
			setStringField(page, "page_token", next)
		}
	}
}

// stringField is the string field name of m, which has one: page_token of
// a paged request, next_page_token of its answer (AIP-158 names them).
func stringField(m proto.Message, name protoreflect.Name) string {
	r := m.ProtoReflect()
	return r.Get(r.Descriptor().Fields().ByName(name)).String()
}

func setStringField(m proto.Message, name protoreflect.Name, value string) {
	r := m.ProtoReflect()
	r.Set(r.Descriptor().Fields().ByName(name), protoreflect.ValueOfString(value))
}

package mdcclient_test

// The paged-read iterators (pages.go) over a fake connection that serves
// pages of empty items: every paged RPC of the mdc.v1 descriptors has an
// iterator, which follows next_page_token, keeps the request's other fields,
// stops when the caller does and ends with the first error.

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// pagedCases runs each iterator of pages.go over conn with a request whose
// page_size is 7, returning how many items it yielded and the error it
// ended with; stopAfter > 0 breaks out of the loop after that many items.
var pagedCases = map[string]func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error){
	mdcv1.AdminService_ListDevelopers_FullMethodName: func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error) {
		return drain(mdcclient.AllDevelopers(ctx, conn, &mdcv1.ListDevelopersRequest{PageSize: 7}), stopAfter)
	},
	mdcv1.DashboardService_ListRuns_FullMethodName: func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error) {
		return drain(mdcclient.AllRuns(ctx, conn, &mdcv1.ListRunsRequest{PageSize: 7, Tag: "t"}), stopAfter)
	},
	mdcv1.DashboardService_ListOrders_FullMethodName: func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error) {
		return drain(mdcclient.AllOrders(ctx, conn, &mdcv1.ListOrdersRequest{PageSize: 7, RunId: "1"}), stopAfter)
	},
	mdcv1.DeveloperService_GetQuoteTimeline_FullMethodName: func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error) {
		return drain(mdcclient.AllQuotes(ctx, conn, &mdcv1.GetQuoteTimelineRequest{PageSize: 7, Symbol: "TCS"}), stopAfter)
	},
	mdcv1.DeveloperService_GetNiftyTimeline_FullMethodName: func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error) {
		return drain(mdcclient.AllNiftyQuotes(ctx, conn, &mdcv1.GetNiftyTimelineRequest{PageSize: 7, Timezone: "UTC"}), stopAfter)
	},
	mdcv1.DeveloperService_GetQuotes_FullMethodName: func(ctx context.Context, conn grpc.ClientConnInterface, stopAfter int) (int, error) {
		return drain(mdcclient.AllQuotesAt(ctx, conn, &mdcv1.GetQuotesRequest{PageSize: 7, Datetime: "2025-01-02T12:00:00"}), stopAfter)
	},
}

func drain[T any](items iter.Seq2[T, error], stopAfter int) (n int, err error) {
	for _, err := range items {
		if err != nil {
			return n, err
		}
		n++
		if n == stopAfter {
			break
		}
	}
	return n, nil
}

// pagedMethods is every method of mdc.v1 whose request has page_token and
// whose answer has next_page_token.
func pagedMethods(t *testing.T) []protoreflect.MethodDescriptor {
	var paged []protoreflect.MethodDescriptor
	for _, m := range mdcMethods(t) {
		if m.Input().Fields().ByName("page_token") != nil && m.Output().Fields().ByName("next_page_token") != nil {
			paged = append(paged, m)
		}
	}
	return paged
}

// pagingConn serves a paged RPC: pages[i] items (empty messages) on page
// i, each page's next_page_token "after-<i>" except the last's; failAt >=
// 0 makes that page's call fail, sameToken makes every answer after the
// first repeat the request's token.
type pagingConn struct {
	t         *testing.T
	pages     []int
	failAt    int
	sameToken bool
	requests  []proto.Message
	methods   []string
}

func (c *pagingConn) Invoke(_ context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	req := args.(proto.Message)
	c.requests = append(c.requests, proto.Clone(req))
	c.methods = append(c.methods, method)
	i := len(c.requests) - 1
	if i == c.failAt {
		return status.Error(codes.InvalidArgument, "pageToken: not one this API returned")
	}
	resp := reply.(proto.Message).ProtoReflect()
	list := listField(c.t, resp.Descriptor())
	items := resp.Mutable(list).List()
	for range c.pages[i] {
		items.Append(items.NewElement())
	}
	next := ""
	if i+1 < len(c.pages) {
		next = fmt.Sprintf("after-%d", i)
	}
	if c.sameToken && i > 0 {
		next = req.ProtoReflect().Get(req.ProtoReflect().Descriptor().Fields().ByName("page_token")).String()
	}
	resp.Set(resp.Descriptor().Fields().ByName("next_page_token"), protoreflect.ValueOfString(next))
	return nil
}

func (c *pagingConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, errors.New("pagingConn serves unary calls only")
}

// listField is the one repeated message field of a paged answer.
func listField(t *testing.T, d protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	var found protoreflect.FieldDescriptor
	for i := 0; i < d.Fields().Len(); i++ {
		if f := d.Fields().Get(i); f.IsList() && f.Message() != nil {
			if found != nil {
				t.Fatalf("%s has two lists", d.FullName())
			}
			found = f
		}
	}
	if found == nil {
		t.Fatalf("%s has no list of messages", d.FullName())
	}
	return found
}

func TestEveryPagedReadHasAnIterator(t *testing.T) {
	paged := pagedMethods(t)
	if len(paged) != len(pagedCases) {
		t.Errorf("%d paged RPCs in mdc.v1, %d iterators tested", len(paged), len(pagedCases))
	}
	for _, m := range paged {
		name := fullMethod(m)
		run, ok := pagedCases[name]
		if !ok {
			t.Errorf("%s is paged (page_token, next_page_token) but pages.go has no iterator for it", name)
			continue
		}
		conn := &pagingConn{t: t, pages: []int{3, 0, 2}, failAt: -1}
		n, err := run(context.Background(), conn, 0)
		if err != nil || n != 5 {
			t.Errorf("%s: %d items, %v; want the 5 of three pages", name, n, err)
		}
		if len(conn.requests) != 3 {
			t.Fatalf("%s: %d calls, want 3", name, len(conn.requests))
		}
		for i, req := range conn.requests {
			if conn.methods[i] != name {
				t.Errorf("%s: call %d went to %s", name, i, conn.methods[i])
			}
			r := req.ProtoReflect()
			token := r.Get(r.Descriptor().Fields().ByName("page_token")).String()
			if want := map[int]string{0: "", 1: "after-0", 2: "after-1"}[i]; token != want {
				t.Errorf("%s: call %d sent page token %q, want %q", name, i, token, want)
			}
			if size := r.Get(r.Descriptor().Fields().ByName("page_size")).Int(); size != 7 {
				t.Errorf("%s: call %d sent page size %d, want the request's 7", name, i, size)
			}
		}
		for i, req := range conn.requests[1:] {
			if !proto.Equal(withoutToken(conn.requests[0]), withoutToken(req)) {
				t.Errorf("%s: call %d differs from the first in more than its token:\n%v\n%v", name, i+1, conn.requests[0], req)
			}
		}
	}
}

func withoutToken(m proto.Message) proto.Message {
	c := proto.Clone(m)
	c.ProtoReflect().Clear(c.ProtoReflect().Descriptor().Fields().ByName("page_token"))
	return c
}

func TestIteratorsStopWhenTheCallerDoes(t *testing.T) {
	for name, run := range pagedCases {
		conn := &pagingConn{t: t, pages: []int{3, 3}, failAt: -1}
		if n, err := run(context.Background(), conn, 2); n != 2 || err != nil || len(conn.requests) != 1 {
			t.Errorf("%s, break after 2 items: %d items, %v, %d calls; want 2, nil, 1", name, n, err, len(conn.requests))
		}
		conn = &pagingConn{t: t, pages: []int{3, 3}, failAt: -1}
		if n, err := run(context.Background(), conn, 3); n != 3 || err != nil || len(conn.requests) != 1 {
			t.Errorf("%s, break after the first page: %d items, %v, %d calls; want 3, nil, 1", name, n, err, len(conn.requests))
		}
	}
}

func TestIteratorsEndWithTheFirstError(t *testing.T) {
	for name, run := range pagedCases {
		conn := &pagingConn{t: t, pages: []int{2, 2, 2}, failAt: 1}
		n, err := run(context.Background(), conn, 0)
		if n != 2 || status.Code(err) != codes.InvalidArgument || len(conn.requests) != 2 {
			t.Errorf("%s, second page refused: %d items, %v, %d calls; want 2, InvalidArgument, 2", name, n, err, len(conn.requests))
		}
		conn = &pagingConn{t: t, pages: []int{1, 1, 1}, failAt: -1, sameToken: true}
		n, err = run(context.Background(), conn, 0)
		if n != 2 || status.Code(err) != codes.Internal || len(conn.requests) != 2 {
			t.Errorf("%s, an answer repeating the token: %d items, %v, %d calls; want 2, Internal, 2", name, n, err, len(conn.requests))
		}
	}
}

func TestIteratorsLeaveTheRequestAlone(t *testing.T) {
	req := &mdcv1.ListRunsRequest{Tag: "t", PageSize: 2, PageToken: "start"}
	conn := &pagingConn{t: t, pages: []int{1, 1, 1}, failAt: -1}
	if n, err := drain(mdcclient.AllRuns(context.Background(), conn, req), 0); n != 3 || err != nil {
		t.Fatalf("AllRuns: %d items, %v", n, err)
	}
	if got := conn.requests[0].(*mdcv1.ListRunsRequest).GetPageToken(); got != "start" {
		t.Errorf("the first call sent page token %q, want the request's", got)
	}
	if !proto.Equal(req, &mdcv1.ListRunsRequest{Tag: "t", PageSize: 2, PageToken: "start"}) {
		t.Errorf("the request was changed: %v", req)
	}
	// A nil request is an empty one.
	conn = &pagingConn{t: t, pages: []int{2}, failAt: -1}
	if n, err := drain(mdcclient.AllRuns(context.Background(), conn, nil), 0); n != 2 || err != nil {
		t.Errorf("AllRuns(nil): %d items, %v; want 2", n, err)
	}
}

package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/grpc-ecosystem/grpc-gateway/v2/utilities"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"mdc/gateway/gen/mdcv1"
	mdcroutes "mdc/gateway/internal/routes"
)

// route is one export route: the RPC it calls and the layout of its rows.
type route struct {
	path   string // the GET path of the RPC's google.api.http rule (httpPath)
	rpc    string // full method name, /mdc.v1.ExportService/ExportQuotes
	layout layout
	// request is a new request message of the RPC, to fill from the query.
	request func() proto.Message
}

// newRoute is the route of rpc, its path read from the descriptors.
func newRoute(rpc string, l layout, request func() proto.Message) route {
	return route{path: httpPath(rpc), rpc: rpc, layout: l, request: request}
}

var routes = []route{
	newRoute(mdcv1.ExportService_ExportQuotes_FullMethodName, quotesLayout,
		func() proto.Message { return &mdcv1.ExportQuotesRequest{} }),
	newRoute(mdcv1.ExportService_ExportNifty_FullMethodName, niftyLayout,
		func() proto.Message { return &mdcv1.ExportNiftyRequest{} }),
	newRoute(mdcv1.ExportService_ExportShortlists_FullMethodName, shortlistsLayout,
		func() proto.Message { return &mdcv1.ExportShortlistsRequest{} }),
	newRoute(mdcv1.ExportService_ExportCandles_FullMethodName, candlesLayout,
		func() proto.Message { return &mdcv1.ExportCandlesRequest{} }),
}

// httpPath is the path of the GET rule (google.api.http) of the RPC named
// by its full method name: the protos hold the paths, this package restates
// none. A missing or non-GET rule is a broken build, found when the package
// loads.
func httpPath(fullMethod string) string {
	name := protoreflect.FullName(strings.ReplaceAll(strings.TrimPrefix(fullMethod, "/"), "/", "."))
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
	if err != nil {
		panic(fmt.Sprintf("export: no descriptor of %s: %v", name, err))
	}
	md, ok := d.(protoreflect.MethodDescriptor)
	if !ok {
		panic(fmt.Sprintf("export: %s is not a method", name))
	}
	rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	method, path := mdcroutes.HTTPRule(rule)
	if method != http.MethodGet {
		panic(fmt.Sprintf("export: %s has no GET rule (google.api.http)", name))
	}
	return path
}

// streamDesc is the description of the server-streaming RPC method.
func streamDesc(method string) (*grpc.StreamDesc, error) {
	for i, d := range mdcv1.ExportService_ServiceDesc.Streams {
		if "/"+mdcv1.ExportService_ServiceDesc.ServiceName+"/"+d.StreamName == method {
			return &mdcv1.ExportService_ServiceDesc.Streams[i], nil
		}
	}
	return nil, fmt.Errorf("no stream %s in %s", method, mdcv1.ExportService_ServiceDesc.ServiceName)
}

// chunkStream receives an export's messages undecoded (wire.go says why).
type chunkStream struct{ grpc.ClientStream }

// call starts the RPC of rt with req.
func (rt route) call(ctx context.Context, conn grpc.ClientConnInterface, desc *grpc.StreamDesc, req proto.Message) (chunkStream, error) {
	stream, err := conn.NewStream(ctx, desc, rt.rpc, grpc.ForceCodecV2(wireCodec{}))
	if err != nil {
		return chunkStream{}, err
	}
	if err := stream.SendMsg(req); err != nil {
		return chunkStream{}, err
	}
	if err := stream.CloseSend(); err != nil {
		return chunkStream{}, err
	}
	return chunkStream{stream}, nil
}

// Recv reads the next message into chunk; io.EOF after the last.
func (s chunkStream) Recv(chunk *wireChunk) error { return s.RecvMsg(chunk) }

// Register serves the export routes on mux, in place of grpc-gateway's
// JSON stream of the same routes: each calls its mdc.v1.ExportService RPC
// through conn and writes the records as a file in the format the query
// asks for, as they arrive. Errors before the first record (a bad
// parameter, a token, the backtest clock) are the mux's error answers, as
// on every route; once the file has begun, a failure breaks the answer off
// (cut.go), so a client never takes a cut file for a whole one, and a
// whole file ends with the trailer RowsTrailer.
//
// writeTimeout is how long a download may make no progress (the client reads
// nothing) before it is broken off like a failed one, which cancels the RPC,
// so an unread export holds nothing for longer (MDC_EXPORT_WRITE_TIMEOUT).
func Register(mux *runtime.ServeMux, conn grpc.ClientConnInterface, writeTimeout time.Duration, cuts Cuts) error {
	for _, rt := range routes {
		desc, err := streamDesc(rt.rpc)
		if err != nil {
			return err
		}
		if err := mux.HandlePath(http.MethodGet, rt.path, rt.serve(mux, conn, desc, writeTimeout, cuts)); err != nil {
			return fmt.Errorf("register %s: %w", rt.path, err)
		}
	}
	return nil
}

// Paths are the export routes.
func Paths() []string {
	paths := make([]string, len(routes))
	for i, rt := range routes {
		paths[i] = rt.path
	}
	return paths
}

func (rt route) serve(mux *runtime.ServeMux, conn grpc.ClientConnInterface, desc *grpc.StreamDesc, writeTimeout time.Duration, cuts Cuts) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		// Cancelled when the handler returns, also when the client left:
		// the server stops reading pages.
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		_, outbound := runtime.MarshalerForRequest(mux, r)
		fail := func(ctx context.Context, err error) { runtime.HTTPError(ctx, mux, outbound, w, r, err) }
		ctx, err := runtime.AnnotateContext(ctx, mux, r, rt.rpc, runtime.WithHTTPPathPattern(rt.path))
		if err != nil {
			fail(ctx, err)
			return
		}
		if err := r.ParseForm(); err != nil {
			fail(ctx, status.Errorf(codes.InvalidArgument, "%v", err))
			return
		}
		f, err := formatOf(r.Form)
		if err != nil {
			fail(ctx, fieldError(formatParam, err.Error()))
			return
		}
		req := rt.request()
		if err := runtime.PopulateQueryParameters(req, r.Form, utilities.NewDoubleArray(nil)); err != nil {
			fail(ctx, status.Errorf(codes.InvalidArgument, "%v", err))
			return
		}
		stream, err := rt.call(ctx, conn, desc, req)
		if err != nil {
			fail(ctx, err)
			return
		}
		// The first message, or the end of an empty export, says the
		// request was accepted.
		var chunk wireChunk
		err = stream.Recv(&chunk)
		if err != nil && !errors.Is(err, io.EOF) {
			fail(ctx, err)
			return
		}
		rt.writeFile(w, r, f, req, &chunk, err == nil, stream, cancel, writeTimeout, cuts)
	}
}

// writeFile answers with the file: the message in chunk (when more is
// true), then every message stream sends until its end, then the trailer
// RowsTrailer with the count of the file's rows. stop cancels the stream.
func (rt route) writeFile(w http.ResponseWriter, r *http.Request, f format, req proto.Message, chunk *wireChunk, more bool, stream chunkStream, stop context.CancelFunc, writeTimeout time.Duration, cuts Cuts) {
	l := rt.layout
	adjustment := requestAdjustment(req)
	if adjusted(adjustment) {
		l = withAdjustmentColumn(l, adjustment)
	}
	// An export lasts as long as it needs, but each chunk must be taken by
	// the client within writeTimeout: the deadline moves on with every one.
	rc := http.NewResponseController(w)
	progress := func() { _ = rc.SetWriteDeadline(time.Now().Add(writeTimeout)) }
	progress()
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, rt.fileName(req, f)))
	if adjustment != "" {
		h.Set(AdjustmentHeader, adjustment)
	}
	h.Set("Trailer", RowsTrailer)
	w.WriteHeader(http.StatusOK)
	// The client learns at once that its file is coming.
	_ = rc.Flush()
	out := &counted{w: w}
	// newCut describes the answer as it is broken off after `rows` rows.
	newCut := func(rows int64, err error) cut {
		k := cut{route: rt.path, format: f.name, rows: rows, bytes: out.n, reason: err, clientFailed: out.err != nil}
		if errors.Is(out.err, os.ErrDeadlineExceeded) {
			k.timedOut = true
			k.reason = fmt.Errorf("the client read nothing for %v (MDC_EXPORT_WRITE_TIMEOUT)", writeTimeout)
		}
		return k
	}
	enc, err := f.open(out, l)
	if err != nil {
		cuts.breakOff(w, r, newCut(0, err))
		return
	}
	fail := func(err error) { cuts.breakOff(w, r, newCut(enc.Rows(), err)) }
	if err := writePages(enc, chunk, more, stream.Recv, progress, stop); err != nil {
		fail(err)
		return
	}
	progress()
	if err := enc.Close(); err != nil {
		fail(err)
		return
	}
	// Sent after the last byte, so only a whole file has it.
	h.Set(RowsTrailer, strconv.FormatInt(enc.Rows(), 10))
}

// RowsTrailer is the HTTP trailer that ends every whole export file (over
// chunked HTTP/1.1 and HTTP/2; HTTP/1.0 has no trailers): the number of
// rows in it (CSV: lines after the header; Parquet: rows; NDJSON: lines).
// Declared in the Trailer header before the file, sent after its last
// byte: an answer without it was cut.
const RowsTrailer = "Mdc-Export-Rows"

// fileName names the file after the kind and days of the export:
// quotes_2025-01-02_2025-01-31.parquet.
func (rt route) fileName(req proto.Message, f format) string {
	days, _ := req.(interface {
		GetStartDate() string
		GetEndDate() string
	})
	start, end := days.GetStartDate(), days.GetEndDate()
	if end == "" {
		end = start
	}
	if a := requestAdjustment(req); adjusted(a) {
		return fmt.Sprintf("%s_%s_%s_%s.%s", rt.layout.kind, start, end, a, f.name)
	}
	return fmt.Sprintf("%s_%s_%s.%s", rt.layout.kind, start, end, f.name)
}

// fieldError is INVALID_ARGUMENT naming one bad query parameter, as the
// server words its own.
func fieldError(field, description string) error {
	st := status.New(codes.InvalidArgument, field+": "+description)
	if detailed, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
		{Field: field, Description: description},
	}}); err == nil {
		st = detailed
	}
	return st.Err()
}

package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// importRoute is one import route: the layout of its files and the RPC
// that stores their records.
type importRoute struct {
	path   string // as the RPC's google.api.http rule has it
	rpc    string // full method name
	layout layout
	open   func(ctx context.Context, c mdcv1.ImportServiceClient) (importStream, error)
}

// importStream is the client stream of one import RPC.
type importStream interface {
	// accepted waits for the server's headers, which it sends once the
	// caller may import, and is its refusal otherwise.
	accepted() error
	send(records []*mdcv1.ExportRecord) error
	closeAndRecv() (*mdcv1.ImportResponse, error)
}

type quotesImport struct {
	grpc.ClientStreamingClient[mdcv1.ImportQuotesRequest, mdcv1.ImportResponse]
}

func (s quotesImport) send(r []*mdcv1.ExportRecord) error {
	return s.Send(&mdcv1.ImportQuotesRequest{Records: r})
}
func (s quotesImport) closeAndRecv() (*mdcv1.ImportResponse, error) { return s.CloseAndRecv() }
func (s quotesImport) accepted() error                              { return accepted(s) }

type niftyImport struct {
	grpc.ClientStreamingClient[mdcv1.ImportNiftyRequest, mdcv1.ImportResponse]
}

func (s niftyImport) send(r []*mdcv1.ExportRecord) error {
	return s.Send(&mdcv1.ImportNiftyRequest{Records: r})
}
func (s niftyImport) closeAndRecv() (*mdcv1.ImportResponse, error) { return s.CloseAndRecv() }
func (s niftyImport) accepted() error                              { return accepted(s) }

type shortlistsImport struct {
	grpc.ClientStreamingClient[mdcv1.ImportShortlistsRequest, mdcv1.ImportResponse]
}

func (s shortlistsImport) send(r []*mdcv1.ExportRecord) error {
	return s.Send(&mdcv1.ImportShortlistsRequest{Records: r})
}
func (s shortlistsImport) closeAndRecv() (*mdcv1.ImportResponse, error) { return s.CloseAndRecv() }
func (s shortlistsImport) accepted() error                              { return accepted(s) }

// accepted waits for the headers of s: the server sends them once it has
// accepted the call; a call refused first (the token, the role) ends
// without them, and its status is the answer.
func accepted(s interface {
	Header() (metadata.MD, error)
	CloseAndRecv() (*mdcv1.ImportResponse, error)
}) error {
	if md, err := s.Header(); err == nil && md != nil {
		return nil
	}
	_, err := s.CloseAndRecv()
	if err == nil {
		err = status.Error(codes.Internal, "the import ended before it began")
	}
	return err
}

var importRoutes = []importRoute{
	{"/v1/admin/import/quotes", mdcv1.ImportService_ImportQuotes_FullMethodName, quotesLayout,
		func(ctx context.Context, c mdcv1.ImportServiceClient) (importStream, error) {
			s, err := c.ImportQuotes(ctx)
			return quotesImport{s}, err
		}},
	{"/v1/admin/import/nifty", mdcv1.ImportService_ImportNifty_FullMethodName, niftyLayout,
		func(ctx context.Context, c mdcv1.ImportServiceClient) (importStream, error) {
			s, err := c.ImportNifty(ctx)
			return niftyImport{s}, err
		}},
	{"/v1/admin/import/shortlists", mdcv1.ImportService_ImportShortlists_FullMethodName, shortlistsLayout,
		func(ctx context.Context, c mdcv1.ImportServiceClient) (importStream, error) {
			s, err := c.ImportShortlists(ctx)
			return shortlistsImport{s}, err
		}},
}

// ImportPaths are the import routes.
func ImportPaths() []string {
	paths := make([]string, len(importRoutes))
	for i, rt := range importRoutes {
		paths[i] = rt.path
	}
	return paths
}

// IsImport reports whether r is a request to an import route: its body is
// a file the route reads as it streams, under ImportLimits, not a JSON
// body under the gateway's body limit.
func IsImport(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	for _, rt := range importRoutes {
		if r.URL.Path == rt.path {
			return true
		}
	}
	return false
}

// ImportLimits bound an import's file.
type ImportLimits struct {
	// MaxBytes is the largest file accepted (MDC_IMPORT_MAX_BYTES); a
	// Parquet file is spooled to a temporary file of at most this size.
	MaxBytes int64
	// Idle is how long the upload may send nothing before it is ended.
	Idle time.Duration
	// SpoolDir holds the Parquet spools ("": the system's temporary
	// folder).
	SpoolDir string
}

// Records sent in one message of an import stream: the server's receive
// limit is 4 MiB a message, and a message is sent once it holds this many
// records or about this many bytes.
const (
	importMessageRecords = 4096
	importMessageBytes   = 1 << 20
)

// RegisterImports serves the import routes on mux: each reads the request
// body as a file of the `format` the query names (csv, parquet, ndjson;
// default csv), in the layout of the export of its kind, and streams its
// records to the mdc.v1.ImportService RPC through conn as they are read.
// The answer, once the server has committed the file, is the RPC's
// ImportResponse as JSON. A bad file is 400 naming its line (CSV, NDJSON)
// or row (Parquet); the server then stores nothing.
func RegisterImports(mux *runtime.ServeMux, conn grpc.ClientConnInterface, limits ImportLimits) error {
	client := mdcv1.NewImportServiceClient(conn)
	for _, rt := range importRoutes {
		if err := mux.HandlePath(http.MethodPost, rt.path, rt.serve(mux, client, limits)); err != nil {
			return fmt.Errorf("register %s: %w", rt.path, err)
		}
	}
	return nil
}

func (rt importRoute) serve(mux *runtime.ServeMux, client mdcv1.ImportServiceClient, limits ImportLimits) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		// Cancelled when the handler returns: an import left half way (a bad
		// line, the client gone) cancels its RPC, and the server stores
		// nothing.
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		_, outbound := runtime.MarshalerForRequest(mux, r)
		fail := func(ctx context.Context, err error) {
			// The rest of the body may still be on the connection.
			w.Header().Set("Connection", "close")
			runtime.HTTPError(ctx, mux, outbound, w, r, err)
		}
		ctx, err := runtime.AnnotateContext(ctx, mux, r, rt.rpc, runtime.WithHTTPPathPattern(rt.path))
		if err != nil {
			fail(ctx, err)
			return
		}
		f, err := formatOf(r.URL.Query())
		if err != nil {
			fail(ctx, fieldError(formatParam, err.Error()))
			return
		}
		for name := range r.URL.Query() {
			if name != formatParam {
				fail(ctx, fieldError(name, "is not a parameter of an import: only format"))
				return
			}
		}
		if r.ContentLength > limits.MaxBytes {
			fail(ctx, tooLarge(limits.MaxBytes))
			return
		}
		body := &importBody{r: r.Body, limit: limits.MaxBytes, rc: http.NewResponseController(w), idle: limits.Idle}
		body.progress()
		stream, err := rt.open(ctx, client)
		if err == nil {
			// Nothing of the file is read before the caller is known to
			// be allowed: a developer learns nothing from a bad file.
			err = stream.accepted()
		}
		if err != nil {
			fail(ctx, err)
			return
		}
		resp, err := rt.run(ctx, f, body, stream, limits)
		if err != nil {
			fail(ctx, err)
			return
		}
		// The answer may take as long as the merge: no write deadline of
		// the server's.
		_ = body.rc.SetWriteDeadline(time.Time{})
		runtime.ForwardResponseMessage(ctx, mux, outbound, w, r, resp)
	}
}

// run reads the file in body as format f and sends its records on stream;
// the server's answer once it has committed them, or why not.
func (rt importRoute) run(ctx context.Context, f format, body *importBody, stream importStream, limits ImportLimits) (*mdcv1.ImportResponse, error) {
	src, done, err := rt.source(ctx, f, body, limits)
	defer done()
	if err != nil {
		return nil, importError(body, err)
	}
	sent := newSentPlaces(src.unit())
	batch := make([]*mdcv1.ExportRecord, 0, importMessageRecords)
	bytes := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := stream.send(batch)
		batch, bytes = batch[:0], 0
		return err
	}
	for {
		rec, place, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, importError(body, err)
		}
		sent.add(place)
		batch = append(batch, rec)
		bytes += proto.Size(rec)
		if len(batch) >= importMessageRecords || bytes >= importMessageBytes {
			if err := flush(); err != nil {
				// io.EOF: the server ended the stream; its status says why.
				_, err = stream.closeAndRecv()
				return nil, sent.placed(err)
			}
		}
	}
	if err := flush(); err != nil {
		_, err = stream.closeAndRecv()
		return nil, sent.placed(err)
	}
	resp, err := stream.closeAndRecv()
	if err != nil {
		return nil, sent.placed(err)
	}
	return resp, nil
}

// source opens the reader of format f over body.
func (rt importRoute) source(ctx context.Context, f format, body *importBody, limits ImportLimits) (recordSource, func(), error) {
	switch f.name {
	case "ndjson":
		return newNDJSONSource(body), func() {}, nil
	case "parquet":
		spool, err := os.CreateTemp(limits.SpoolDir, "mdc-import-*.parquet")
		if err != nil {
			return nil, func() {}, status.Errorf(codes.Unavailable, "the gateway cannot spool the file: %v", err)
		}
		remove := func() { _ = spool.Close(); _ = os.Remove(spool.Name()) }
		if _, err := io.Copy(spool, body); err != nil {
			return nil, remove, err
		}
		src, closeSrc, err := newParquetSource(ctx, spool, rt.layout)
		return src, func() { closeSrc(); remove() }, err
	}
	src, err := newCSVSource(body, rt.layout)
	return src, func() {}, err
}

// importBody is the request body of an import: at most limit bytes, and
// each read moves the read deadline on by idle.
type importBody struct {
	r     io.Reader
	n     int64
	limit int64
	rc    *http.ResponseController
	idle  time.Duration
	// err is the body's own failure (too large, unreadable): it, not what
	// a decoder made of it, is the import's error.
	err error
}

func (b *importBody) progress() {
	_ = b.rc.SetReadDeadline(time.Now().Add(b.idle))
	_ = b.rc.SetWriteDeadline(time.Now().Add(b.idle))
}

func (b *importBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	b.progress()
	if b.n > b.limit {
		b.err = tooLarge(b.limit)
		return 0, b.err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		b.err = status.Errorf(codes.Canceled, "the upload broke off after %d bytes: %v", b.n, err)
		return n, b.err
	}
	if errors.Is(err, io.EOF) {
		// The whole file is in; the merge may take minutes. net/http reads
		// on to notice a client that leaves, and a deadline there would
		// end the connection (and cancel the import) while it waits.
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

func tooLarge(limit int64) error {
	return &runtime.HTTPStatusError{HTTPStatus: http.StatusRequestEntityTooLarge,
		Err: status.Errorf(codes.ResourceExhausted, "the file is larger than %d bytes, the most an import takes (MDC_IMPORT_MAX_BYTES)", limit)}
}

// importError is the answer to a file the gateway could not read: the
// body's own failure first, then a bad line or row as 400 naming it.
func importError(body *importBody, err error) error {
	if body.err != nil {
		return body.err
	}
	var pe *placeError
	if errors.As(err, &pe) {
		field := fmt.Sprintf("%s %d", pe.unit, pe.place)
		if pe.place == 0 {
			field = "file"
		}
		return badPlace(field, pe.err.Error())
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return badPlace("file", err.Error())
}

// badPlace is INVALID_ARGUMENT naming a place of the file.
func badPlace(field, description string) error {
	st := status.New(codes.InvalidArgument, field+": "+description)
	if detailed, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
		{Field: field, Description: description},
	}}); err == nil {
		st = detailed
	}
	return st.Err()
}

// sentPlaces remembers where in the file the records of the last messages
// sent began, so that the server's error naming records[i] can name the
// line or row too. The server reads each message as it arrives, so the
// record it refuses is among the last few sent: only those are kept.
type sentPlaces struct {
	unit   string
	first  int64   // the stream index of places[0]
	places []int64 // the places of records first, first+1, ...
}

const sentPlacesKept = 64 * importMessageRecords

func newSentPlaces(unit string) *sentPlaces { return &sentPlaces{unit: unit} }

func (s *sentPlaces) add(place int64) {
	if len(s.places) == 2*sentPlacesKept {
		copy(s.places, s.places[sentPlacesKept:])
		s.places = s.places[:sentPlacesKept]
		s.first += sentPlacesKept
	}
	s.places = append(s.places, place)
}

var recordIndex = regexp.MustCompile(`^records\[(\d+)\]`)

// placed adds the file's line or row to the server's error about a record.
func (s *sentPlaces) placed(err error) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.InvalidArgument {
		return err
	}
	m := recordIndex.FindStringSubmatch(st.Message())
	if m == nil {
		return err
	}
	i, convErr := strconv.ParseInt(m[1], 10, 64)
	if convErr != nil || i < s.first || i-s.first >= int64(len(s.places)) {
		return err
	}
	where := fmt.Sprintf("%s %d", s.unit, s.places[i-s.first])
	out := status.New(codes.InvalidArgument, where+": "+st.Message())
	// One BadRequest: the place, then the server's violations as it named
	// them (records[i]...).
	violations := []*errdetails.BadRequest_FieldViolation{{Field: where, Description: st.Message()}}
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			violations = append(violations, br.GetFieldViolations()...)
		}
	}
	if detailed, err := out.WithDetails(&errdetails.BadRequest{FieldViolations: violations}); err == nil {
		out = detailed
	}
	return out.Err()
}

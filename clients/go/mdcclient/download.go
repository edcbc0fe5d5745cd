package mdcclient

// Export files over HTTP (docs/api.md section 11): mdc-gateway's export
// routes answer with a CSV, Parquet or NDJSON file. For the records
// themselves over gRPC, see ExportQuotes and the others (dataout.go).
//
//	rows, err := mdcclient.DownloadExport(ctx, nil,
//		"https://mdc.example/v1/developer/export/quotes?start_date=2025-01-02&format=csv", token, "quotes.csv")

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

// RowsTrailer is the HTTP trailer that ends every whole export file: the
// number of rows in it. The gateway declares it before the file and sends
// it after the last byte, so an answer without it was cut.
const RowsTrailer = "Mdc-Export-Rows"

// DownloadExport GETs exportURL (an export route of mdc-gateway with its
// query, e.g. .../v1/developer/export/quotes?start_date=2025-01-02&format=csv)
// with the bearer token and writes the file to path; it returns the file's
// row count. The bytes go to path+".part" first, renamed to path only when
// the answer ended with its RowsTrailer: a download that was cut (the
// gateway breaks the answer off when the server fails mid-export; an
// answer that ends without the trailer) removes the part file and returns
// an *Error with code Unavailable, so no partial file is ever left under
// path. An export refused before it began (a bad parameter, the token)
// returns the gateway's status as an *Error. hc nil is
// http.DefaultClient.
func DownloadExport(ctx context.Context, hc *http.Client, exportURL, token, path string) (rows int64, err error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, exportURL, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, ErrorOf(status.Error(codes.Unavailable, err.Error()))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, answerError(resp)
	}
	part := path + ".part"
	rows, err = writeWhole(resp, part)
	if err != nil {
		_ = os.Remove(part)
		if ctx.Err() != nil {
			return 0, ErrorOf(ctx.Err())
		}
		return 0, ErrorOf(status.Errorf(codes.Unavailable, "export download cut before its end: %v; ask again", err))
	}
	if err := os.Rename(part, path); err != nil {
		_ = os.Remove(part)
		return 0, err
	}
	return rows, nil
}

// writeWhole writes the body of resp to the file part and returns the row
// count of its trailer; an error when the body or the trailer is missing.
func writeWhole(resp *http.Response, part string) (int64, error) {
	f, err := os.Create(part)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(f, resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	// The trailer is in once the body has been read to its end.
	v := resp.Trailer.Get(RowsTrailer)
	if v == "" {
		return 0, errors.New("the answer ended without its " + RowsTrailer + " trailer")
	}
	rows, err := strconv.ParseInt(v, 10, 64)
	if err != nil || rows < 0 {
		return 0, fmt.Errorf("%s trailer %q", RowsTrailer, v)
	}
	return rows, nil
}

// answerError is the *Error of an error answer of the gateway: its
// google.rpc.Status body, or the HTTP status when the body is not one (an
// answer of a proxy in between).
func answerError(resp *http.Response) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var st spb.Status
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, &st); err == nil && st.GetCode() != 0 {
		return ErrorOf(status.ErrorProto(&st))
	}
	return ErrorOf(status.Errorf(codes.Unknown, "HTTP %s: %.200s", resp.Status, body))
}

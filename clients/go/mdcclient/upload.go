package mdcclient

// Import files over HTTP (docs/api.md section 12): mdc-gateway's import
// routes take a CSV, Parquet or NDJSON file an export wrote and store it
// whole or not at all (admin token).
//
//	res, err := mdcclient.ImportFile(ctx, nil,
//		"https://mdc.example/v1/admin/import/quotes?format=parquet", adminToken, "quotes.parquet")

import (
	"context"
	"io"
	"net/http"
	"os"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

// ImportFile POSTs the file at path to importURL (an import route of
// mdc-gateway with its format, e.g.
// .../v1/admin/import/quotes?format=csv), streamed from disk, with the
// bearer token, and returns the server's answer once the file is
// committed: the records read, written and left unchanged. A refused file
// returns the gateway's status as an *Error, its message beginning with the
// bad line or row; then nothing was stored. A transport failure is an
// *Error with code Unavailable: nothing was stored unless the answer was
// lost after the commit, and importing the file again is safe either way
// (records equal to the stored ones change nothing). hc nil is
// http.DefaultClient.
func ImportFile(ctx context.Context, hc *http.Client, importURL, token, path string) (*mdcv1.ImportResponse, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, importURL, f)
	if err != nil {
		return nil, err
	}
	req.ContentLength = info.Size()
	req.Header.Set("Content-Type", "application/octet-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ErrorOf(ctx.Err())
		}
		return nil, ErrorOf(status.Error(codes.Unavailable, err.Error()))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, answerError(resp)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, ErrorOf(status.Errorf(codes.Unavailable, "reading the import's answer: %v", err))
	}
	var out mdcv1.ImportResponse
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, &out); err != nil {
		return nil, ErrorOf(status.Errorf(codes.Unknown, "the import's answer is not an ImportResponse: %.200s", body))
	}
	return &out, nil
}

// Command example calls the mdc gRPC server with a developer token: it saves
// a TOP_GAINERS shortlist snapshot (CollectorService.SaveShortlist), reads it
// back as of a minute later (DeveloperService.GetList) and prints it. Times
// go to the server as mdcclient.WallClock gives them; a failure is printed
// with what mdcclient.ErrorOf takes out of it (its reason, each bad field).
//
//	MDC_GRPC_ADDR=127.0.0.1:50051 MDC_TOKEN=mdc_... go run .
//
// MDC_GRPC_ADDR defaults to the server's default address 127.0.0.1:50051.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// snapshotTime is when the snapshot the example writes was taken: 09:15 IST
// on a trading day.
var snapshotTime = time.Date(2025, 12, 31, 9, 15, 0, 0, mdcclient.IST)

// Shortlist is the snapshot the example saves.
func Shortlist() *mdcv1.ShortlistData {
	timestamp, timezone := mdcclient.WallClock(snapshotTime)
	return &mdcv1.ShortlistData{
		Timestamp:     timestamp,
		Timezone:      timezone,
		ShortlistType: mdcv1.ShortlistType_TOP_GAINERS,
		Scope:         mdcv1.Scope_TOP_5,
		Entries: []*mdcv1.ShortlistEntry{
			{NseSymbol: "RELIANCE", Name: "Reliance Industries", Price: proto.Float64(1162.5)},
			{NseSymbol: "TCS", Name: "Tata Consultancy Services", Price: proto.Float64(3521.0)},
			{NseSymbol: "M&M", Name: "Mahindra & Mahindra", Price: proto.Float64(2651.25)},
		},
	}
}

// Run saves Shortlist() on the server at addr with token, reads the
// shortlist back, prints it to out and returns it.
func Run(ctx context.Context, addr, token string, out io.Writer) (*mdcv1.Shortlist, error) {
	conn, err := mdcclient.Dial(addr, token)
	if err != nil {
		return nil, err
	}
	defer conn.Close()

	collector := mdcv1.NewCollectorServiceClient(conn)
	if _, err := collector.SaveShortlist(ctx, &mdcv1.SaveShortlistRequest{Data: Shortlist()}); err != nil {
		return nil, describe("SaveShortlist", err)
	}

	developer := mdcv1.NewDeveloperServiceClient(conn)
	datetime, timezone := mdcclient.WallClock(snapshotTime.Add(time.Minute))
	list, err := developer.GetList(ctx, &mdcv1.GetListRequest{
		Type:     "TOP_GAINERS",
		Scope:    "TOP_5",
		Datetime: datetime,
		Timezone: timezone,
	})
	if err != nil {
		return nil, describe("GetList", err)
	}

	fmt.Fprintf(out, "%s %s as of %s:\n", list.GetShortlistType(), list.GetScope(),
		list.GetTimestamp().AsTime().In(mdcclient.IST).Format(time.RFC3339))
	for i, e := range list.GetEntries() {
		fmt.Fprintf(out, "%d. %-10s %-28s %10.2f\n", i+1, e.GetNseSymbol(), e.GetName(), e.GetPrice())
	}
	return list, nil
}

// describe is a failed call's error with what the server said about it: the
// code, message and reason, then each bad field on a line of its own. It
// wraps err, so status.Code still gives the code.
func describe(call string, err error) error {
	e := mdcclient.ErrorOf(err)
	var fields strings.Builder
	for _, v := range e.FieldViolations {
		fmt.Fprintf(&fields, "\n  %s: %s", v.Field, v.Description)
	}
	return fmt.Errorf("%s: %w%s", call, e, fields.String())
}

func main() {
	addr := os.Getenv("MDC_GRPC_ADDR")
	if addr == "" {
		addr = "127.0.0.1:50051"
	}
	token := os.Getenv("MDC_TOKEN")
	if token == "" {
		fmt.Fprintln(os.Stderr, "set MDC_TOKEN to a developer token")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := Run(ctx, addr, token, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
}

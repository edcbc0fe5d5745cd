package main

// Runs the example against a real stack, started by scripts/stack.sh (the
// one launcher of every suite): a fresh database created from
// MDC_TEST_DATABASE_URL (scripts/test.sh exports it) and the mdc-server
// binary named by MDC_SERVER_BIN on a free 127.0.0.1 port. Without those
// variables the test is skipped, unless MDC_REQUIRE_STACK=1 (ctest sets it).

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
	"github.com/mdc-project/mdc/clients/go/teststack"
)

const (
	startTimeout = 30 * time.Second
)

func TestExampleAgainstServer(t *testing.T) {
	addr, adminToken := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// A developer, created with the admin token.
	admin, err := mdcclient.Dial(addr, adminToken)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	dev, err := mdcv1.NewAdminServiceClient(admin).CreateDeveloper(ctx,
		&mdcv1.CreateDeveloperRequest{Username: "go-example", Role: "developer"})
	if err != nil {
		t.Fatalf("CreateDeveloper: %v", err)
	}
	if dev.GetToken() == "" {
		t.Fatal("CreateDeveloper returned no token")
	}

	var out bytes.Buffer
	got, err := Run(ctx, addr, dev.GetToken(), &out)
	if err != nil {
		t.Fatalf("example: %v", err)
	}
	t.Logf("example output:\n%s", out.String())

	written := Shortlist()
	want := &mdcv1.Shortlist{
		Timestamp:     mustInstant(t, written.GetTimestamp(), written.GetTimezone()),
		ShortlistType: written.GetShortlistType(),
		Scope:         written.GetScope(),
		Entries:       written.GetEntries(),
	}
	if diff := cmpDiff(want, got); diff != "" {
		t.Errorf("shortlist read back differs from the one written:\n%s", diff)
	}
	for _, e := range written.GetEntries() {
		if !strings.Contains(out.String(), e.GetNseSymbol()) {
			t.Errorf("example output lacks %s:\n%s", e.GetNseSymbol(), out.String())
		}
	}
}

func TestCallWithoutTokenIsUnauthenticated(t *testing.T) {
	addr, _ := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	conn, err := mdcclient.Dial(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = mdcv1.NewCollectorServiceClient(conn).SaveShortlist(ctx,
		&mdcv1.SaveShortlistRequest{Data: Shortlist()})
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("SaveShortlist without a token: %v, want code Unauthenticated", err)
	}
	_, err = mdcv1.NewDeveloperServiceClient(conn).GetList(ctx,
		&mdcv1.GetListRequest{Type: "TOP_GAINERS"})
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("GetList without a token: %v, want code Unauthenticated", err)
	}

	unknown, err := mdcclient.Dial(addr, randomToken(t))
	if err != nil {
		t.Fatal(err)
	}
	defer unknown.Close()
	_, err = mdcv1.NewDeveloperServiceClient(unknown).GetList(ctx,
		&mdcv1.GetListRequest{Type: "TOP_GAINERS"})
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("GetList with an unknown token: %v, want code Unauthenticated", err)
	}

	// The example says which call failed, and how.
	var out bytes.Buffer
	_, err = Run(ctx, addr, randomToken(t), &out)
	if status.Code(err) != codes.Unauthenticated || !strings.HasPrefix(err.Error(), "SaveShortlist: Unauthenticated: ") {
		t.Errorf("the example with an unknown token: %v, want SaveShortlist's Unauthenticated", err)
	}
}

func TestDescribeListsEveryBadField(t *testing.T) {
	st, err := status.New(codes.InvalidArgument, "data.timestamp: is required; data.entries[0].price: must be a finite number from 0 to 1e15").
		WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "data.timestamp", Description: "is required"},
			{Field: "data.entries[0].price", Description: "must be a finite number from 0 to 1e15"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := describe("SaveShortlist", st.Err())
	want := "SaveShortlist: InvalidArgument: " + st.Message() +
		"\n  data.timestamp: is required\n  data.entries[0].price: must be a finite number from 0 to 1e15"
	if got.Error() != want || status.Code(got) != codes.InvalidArgument {
		t.Errorf("describe = %q (%v), want %q", got, status.Code(got), want)
	}
}

// startServer creates a database and starts mdc-server on it with
// scripts/stack.sh (the one launcher of every suite, through package
// teststack); both go away when the test ends. It returns the gRPC address
// and the admin token.
func startServer(t *testing.T) (addr, adminToken string) {
	t.Helper()
	if os.Getenv("MDC_SERVER_BIN") == "" || os.Getenv("MDC_TEST_DATABASE_URL") == "" {
		msg := "MDC_SERVER_BIN and MDC_TEST_DATABASE_URL are needed (scripts/test.sh -R go-client sets them)"
		if os.Getenv("MDC_REQUIRE_STACK") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	stack, err := teststack.Start(teststack.Options{NoGateway: true, DBPrefix: "mdc_gotest_"})
	if err != nil {
		t.Fatal(err)
	}
	logTail := func() string {
		data, _ := os.ReadFile(stack.Logs.Server)
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		return strings.Join(lines, "\n")
	}
	t.Cleanup(func() {
		if err := stack.Check(); err != nil {
			t.Errorf("mdc-server ended before the test did: %v\n%s", err, logTail())
		}
		if t.Failed() {
			t.Logf("mdc-server log:\n%s", logTail())
		}
		if err := stack.Stop(); err != nil {
			t.Error(err)
		}
	})
	addr, adminToken = stack.GRPCAddr, stack.AdminToken

	// Ready when HealthService.Check answers.
	conn, err := mdcclient.Dial(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	health := mdcv1.NewHealthServiceClient(conn)
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := health.Check(ctx, &mdcv1.HealthCheckRequest{})
		cancel()
		if err == nil {
			return addr, adminToken
		}
		if time.Now().After(deadline) {
			t.Fatalf("mdc-server at %s not healthy within %s (last: %v)\n%s", addr, startTimeout, err, logTail())
		}
		time.Sleep(100 * time.Millisecond) // polling, not ordering
	}
}

// randomToken is shaped like the service's tokens: "mdc_" and 256 bits.
func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "mdc_" + base64.RawURLEncoding.EncodeToString(b)
}

func mustInstant(t *testing.T, wall, zone string) *timestamppb.Timestamp {
	t.Helper()
	at, err := mdcclient.ParseWallClock(wall, zone)
	if err != nil {
		t.Fatal(err)
	}
	return timestamppb.New(at)
}

// cmpDiff is "" when want and got are equal, else both in text form.
func cmpDiff(want, got proto.Message) string {
	if proto.Equal(want, got) {
		return ""
	}
	return fmt.Sprintf("want: %s\ngot:  %s", prototext.Format(want), prototext.Format(got))
}

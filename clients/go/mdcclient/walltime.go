package mdcclient

// Times as the API takes them (docs/api.md section 1, "Time in requests"):
// a wall-clock string YYYY-MM-DDTHH:MM:SS (no offset, no fraction) and the
// zone it is read in, an IANA name or a fixed offset +HH:MM; trading days
// are calendar dates in Asia/Kolkata. Answers carry instants as
// google.protobuf.Timestamp: ts.AsTime().In(mdcclient.IST) is one in
// Kolkata time.
//
//	at := time.Date(2025, 12, 31, 9, 15, 0, 0, mdcclient.IST)
//	datetime, timezone := mdcclient.WallClock(at) // "2025-12-31T09:15:00", "+05:30"
//	list, err := developer.GetList(ctx, &mdcv1.GetListRequest{Type: "TOP_GAINERS", Datetime: datetime, Timezone: timezone})

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"
)

// DateTimeLayout is the layout (time.Format) of the API's wall-clock
// strings; DateLayout that of its dates.
const (
	DateTimeLayout = "2006-01-02T15:04:05"
	DateLayout     = "2006-01-02"
)

// maxOffset is the largest fixed offset the API accepts (14:00).
const maxOffset = 14 * time.Hour

// IST is Asia/Kolkata, the NSE's zone: a trading day is a calendar date in
// it, and a request without a timezone is read in it. Loaded from the
// system's time zone database; where there is none, the fixed offset
// +05:30, which is what Asia/Kolkata has been since 1945.
var IST = loadIST()

func loadIST() *time.Location {
	if loc, err := time.LoadLocation("Asia/Kolkata"); err == nil {
		return loc
	}
	return time.FixedZone("Asia/Kolkata", 5*3600+1800)
}

// WallClock returns t as a request's wall-clock time and zone: the wall
// clock of t in t's own location and the offset that location has at t
// ("+05:30", "-04:00", or "UTC" for a zero offset), which the server reads
// back to exactly t's instant, whatever the location (time.Local included,
// across daylight-saving changes). Fractions of a second are dropped (the
// API has none): the result is t truncated to the second. A location whose
// offset is not whole minutes or beyond 14:00 (local mean times of the
// 19th century) gives t in UTC.
func WallClock(t time.Time) (datetime, timezone string) {
	_, offset := t.Zone()
	d := time.Duration(offset) * time.Second
	if offset == 0 || offset%60 != 0 || d.Abs() > maxOffset {
		return t.UTC().Format(DateTimeLayout), "UTC"
	}
	return t.Format(DateTimeLayout), t.Format("-07:00")
}

// offsetPattern is a fixed offset as the API accepts it.
var offsetPattern = regexp.MustCompile(`^[+-]\d\d:\d\d$`)

// ParseWallClock is the instant a request's wall-clock time datetime
// (YYYY-MM-DDTHH:MM:SS) names in timezone: an IANA name as Go's
// time.LoadLocation knows it ("Asia/Kolkata", "UTC" in any case), a fixed
// offset "+HH:MM"/"-HH:MM" up to 14:00, or "" for Asia/Kolkata. Impossible
// values (2025-02-30, 24:00:00) are errors, never rolled over. The result is
// in the zone asked for.
func ParseWallClock(datetime, timezone string) (time.Time, error) {
	loc, err := location(timezone)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.ParseInLocation(DateTimeLayout, datetime, loc)
	if err == nil && len(datetime) != len(DateTimeLayout) {
		err = fmt.Errorf("no fraction of a second allowed") // time.Parse would take one
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("mdcclient: datetime %q is not a wall-clock time YYYY-MM-DDTHH:MM:SS: %w", datetime, err)
	}
	return t, nil
}

// location is the *time.Location of a request's timezone.
func location(timezone string) (*time.Location, error) {
	switch {
	case timezone == "":
		return IST, nil
	case strings.EqualFold(timezone, "UTC"):
		return time.UTC, nil
	case offsetPattern.MatchString(timezone):
		hours, _ := strconv.Atoi(timezone[1:3])
		minutes, _ := strconv.Atoi(timezone[4:6])
		d := time.Duration(hours)*time.Hour + time.Duration(minutes)*time.Minute
		if minutes > 59 || d > maxOffset {
			return nil, fmt.Errorf("mdcclient: timezone %q is not an offset from -14:00 to +14:00", timezone)
		}
		if timezone[0] == '-' {
			d = -d
		}
		return time.FixedZone(timezone, int(d/time.Second)), nil
	}
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		return nil, fmt.Errorf("mdcclient: timezone %q is neither a known IANA zone nor an offset +HH:MM: %w", timezone, err)
	}
	return loc, nil
}

// TradingDate is the trading day t falls on: its calendar date in
// Asia/Kolkata, YYYY-MM-DD (the `date` of ReplayDay, CheckHoliday and the
// dashboard's daily reads).
func TradingDate(t time.Time) string {
	return t.In(IST).Format(DateLayout)
}

// ParseTradingDate is the start (00:00 in Asia/Kolkata) of the trading day
// date (YYYY-MM-DD).
func ParseTradingDate(date string) (time.Time, error) {
	t, err := time.ParseInLocation(DateLayout, date, IST)
	if err != nil {
		return time.Time{}, fmt.Errorf("mdcclient: date %q is not YYYY-MM-DD: %w", date, err)
	}
	return t, nil
}

// WithBacktestClock returns ctx with the backtest clock set to now: the
// server answers reads as if the current time were now and refuses to read
// at or after it (x-current-timestamp, x-current-timezone). The instant is
// sent in UTC, truncated to the second (the header has no fraction; the
// earlier second never lets a read see past now), so any time.Location of
// now works.
func WithBacktestClock(ctx context.Context, now time.Time) context.Context {
	return metadata.AppendToOutgoingContext(ctx,
		"x-current-timestamp", now.UTC().Format(DateTimeLayout),
		"x-current-timezone", "UTC")
}

// WithRunID returns ctx with x-run-id set, which the server logs with the
// request.
func WithRunID(ctx context.Context, runID string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "x-run-id", runID)
}

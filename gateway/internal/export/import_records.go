package export

import (
	"fmt"

	"google.golang.org/protobuf/types/known/timestamppb"

	"mdc/gateway/gen/mdcv1"
)

// recordBuilder turns the rows of a CSV or Parquet file of one layout back
// into the mdc.v1.ExportRecords an export wrote them from: the inverse of
// the layout's rows.
type recordBuilder interface {
	// row takes the next row; it returns the record the row completes, or
	// nil when the record goes on (a shortlist's next entries).
	row(r *rowReader) (*mdcv1.ExportRecord, error)
	// end is called after the last row: an error when a record is left
	// incomplete.
	end() error
}

// builderOf is the record builder of layout l, for an import of a file.
func builderOf(l layout) recordBuilder {
	switch l.kind {
	case quotesLayout.kind:
		return quoteBuilder{}
	case niftyLayout.kind:
		return niftyBuilder{}
	}
	return &shortlistBuilder{}
}

type quoteBuilder struct{}

func (quoteBuilder) row(r *rowReader) (*mdcv1.ExportRecord, error) {
	at := r.instant(0)
	day := r.date(1)
	symbol := r.text(2)
	data := r.quoteData(3)
	if r.err != nil {
		return nil, r.err
	}
	return &mdcv1.ExportRecord{TradingDay: day, Record: &mdcv1.ExportRecord_Quote{Quote: &mdcv1.StockQuote{
		Timestamp: timestamppb.New(at), NseSymbol: symbol, QuoteData: data,
	}}}, nil
}

func (quoteBuilder) end() error { return nil }

type niftyBuilder struct{}

func (niftyBuilder) row(r *rowReader) (*mdcv1.ExportRecord, error) {
	at := r.instant(0)
	day := r.date(1)
	data := r.quoteData(2)
	nifty := &mdcv1.NiftyQuote{Timestamp: timestamppb.New(at), QuoteData: data}
	if f, ok := r.float(len(niftyLayout.columns) - 1); ok {
		nifty.DayChangePerc = &f
	}
	if r.err != nil {
		return nil, r.err
	}
	return &mdcv1.ExportRecord{TradingDay: day, Record: &mdcv1.ExportRecord_Nifty{Nifty: nifty}}, nil
}

func (niftyBuilder) end() error { return nil }

// shortlistBuilder gathers the rows of one snapshot: entry_count rows
// ranked 1, 2, ... in order, with the same instant, type and scope; or
// one row with entry_count 0 and no entry.
type shortlistBuilder struct {
	pending *mdcv1.ExportRecord
	count   int32 // the pending snapshot's entry_count
}

// Columns of shortlistsLayout.
const (
	slTimestamp = iota
	slDay
	slType
	slScope
	slCount
	slRank
	slSymbol
	slName
	slPrice
	slQuote
)

func (b *shortlistBuilder) row(r *rowReader) (*mdcv1.ExportRecord, error) {
	at := r.instant(slTimestamp)
	day := r.date(slDay)
	typ := r.text(slType)
	scope := r.text(slScope)
	count, hasCount := r.int32(slCount)
	if r.err != nil {
		return nil, r.err
	}
	if !hasCount {
		return nil, &cellError{column: "entry_count", reason: "is required"}
	}
	if count < 0 {
		return nil, &cellError{column: "entry_count", reason: "must be 0 or more"}
	}
	typeValue, ok := mdcv1.ShortlistType_value[typ]
	if !ok {
		return nil, &cellError{column: "shortlist_type", reason: fmt.Sprintf("must be TOP_GAINERS or VOLUME_SHOCKERS, not %q", typ)}
	}
	scopeValue, ok := mdcv1.Scope_value[scope]
	if !ok {
		return nil, &cellError{column: "scope", reason: fmt.Sprintf("must be TOP_5 or FULL, not %q", scope)}
	}
	ts := timestamppb.New(at)
	if b.pending != nil {
		s := b.pending.GetShortlist()
		if !sameInstant(s.GetTimestamp(), ts) || int32(s.GetShortlistType()) != typeValue ||
			int32(s.GetScope()) != scopeValue || b.count != count || b.pending.GetTradingDay() != day {
			return nil, fmt.Errorf("a snapshot begun on an earlier line has %d of its %d entries; this line is of another snapshot",
				len(s.GetEntries()), b.count)
		}
	} else {
		b.pending = &mdcv1.ExportRecord{TradingDay: day, Record: &mdcv1.ExportRecord_Shortlist{Shortlist: &mdcv1.Shortlist{
			Timestamp: ts, ShortlistType: mdcv1.ShortlistType(typeValue), Scope: mdcv1.Scope(scopeValue),
		}}}
		b.count = count
	}
	s := b.pending.GetShortlist()
	if count == 0 {
		for _, col := range []int{slRank, slSymbol, slName, slPrice, slQuote} {
			if !r.c.null(col) {
				return nil, &cellError{column: shortlistsLayout.columns[col].name, reason: "must be empty in the row of a snapshot without entries"}
			}
		}
		return b.take(), nil
	}
	rank, hasRank := r.int32(slRank)
	if r.err != nil {
		return nil, r.err
	}
	if want := int32(len(s.Entries) + 1); !hasRank || rank != want {
		return nil, &cellError{column: "rank", reason: fmt.Sprintf("must be %d (entries come in rank order, 1 to entry_count)", want)}
	}
	entry := &mdcv1.ShortlistEntry{NseSymbol: r.text(slSymbol)}
	if !r.c.null(slName) {
		name, err := r.c.text(slName)
		if err != nil {
			r.fail(slName, err)
		}
		entry.Name = name
	}
	if f, ok := r.float(slPrice); ok {
		entry.Price = &f
	}
	if !r.c.null(slQuote) {
		text, err := r.c.text(slQuote)
		data := &mdcv1.QuoteData{}
		if err == nil {
			err = protoJSONIn.Unmarshal([]byte(text), data)
		}
		if err != nil {
			r.fail(slQuote, fmt.Errorf("is not a quote as JSON: %v", err))
		}
		entry.QuoteData = data
	}
	if r.err != nil {
		return nil, r.err
	}
	s.Entries = append(s.Entries, entry)
	if int32(len(s.Entries)) < count {
		return nil, nil
	}
	return b.take(), nil
}

func (b *shortlistBuilder) take() *mdcv1.ExportRecord {
	rec := b.pending
	b.pending = nil
	return rec
}

func (b *shortlistBuilder) end() error {
	if b.pending != nil {
		return fmt.Errorf("the file ends inside a snapshot: it has %d of its %d entries",
			len(b.pending.GetShortlist().GetEntries()), b.count)
	}
	return nil
}

func sameInstant(a, b *timestamppb.Timestamp) bool {
	return a.GetSeconds() == b.GetSeconds() && a.GetNanos() == b.GetNanos()
}

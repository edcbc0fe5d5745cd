package mdcv1

// This file is hand-written: flat accessors of the common fields of a quote,
// so that strategy code reads q.LastPrice() rather than
// q.GetQuoteData().GetPayload().GetLastPrice(). Each number comes with
// whether the quote has it: the generated getters read an absent (null)
// field as 0, which for a volume is indistinguishable from no trades.

// Symbol is the stock's NSE symbol (GetNseSymbol), named as candles name it.
func (x *StockQuote) Symbol() string { return x.GetNseSymbol() }

// LastPrice is the quote's payload last_price; ok is false when the quote
// has none (a FAILURE; a SUCCESS quote always has one).
func (x *StockQuote) LastPrice() (price float64, ok bool) {
	return lastPrice(x.GetQuoteData())
}

// Volume is the quote's payload volume, the day's cumulative traded volume;
// ok is false when the quote did not report one.
func (x *StockQuote) Volume() (volume float64, ok bool) { return payloadVolume(x.GetQuoteData()) }

// Symbol is "NIFTY", the symbol candles and cross-sections give the index.
func (x *NiftyQuote) Symbol() string { return "NIFTY" }

// LastPrice is the index's level (its payload's last_price); ok is false
// when the quote has none.
func (x *NiftyQuote) LastPrice() (price float64, ok bool) { return lastPrice(x.GetQuoteData()) }

// Volume is the payload's volume; ok is false when not reported (an index
// usually reports none).
func (x *NiftyQuote) Volume() (volume float64, ok bool) { return payloadVolume(x.GetQuoteData()) }

// Symbol is the entry's NSE symbol (GetNseSymbol).
func (x *ShortlistEntry) Symbol() string { return x.GetNseSymbol() }

// LastPrice is the last_price of the quote the entry was saved with; ok is
// false when it has none (GetPrice is the entry's own price).
func (x *ShortlistEntry) LastPrice() (price float64, ok bool) {
	return lastPrice(x.GetQuoteData())
}

// VolumeReported is the candle's volume; ok is false when no quote of its
// bucket reported a volume (no data; a volume of 0 with ok true is no
// trades). The same as c.Volume != nil, *c.Volume.
func (x *Candle) VolumeReported() (volume float64, ok bool) {
	if x == nil || x.Volume == nil {
		return 0, false
	}
	return *x.Volume, true
}

func lastPrice(q *QuoteData) (float64, bool) {
	p := q.GetPayload()
	if p == nil || p.LastPrice == nil {
		return 0, false
	}
	return *p.LastPrice, true
}

func payloadVolume(q *QuoteData) (float64, bool) {
	p := q.GetPayload()
	if p == nil || p.Volume == nil {
		return 0, false
	}
	return *p.Volume, true
}

package codec

// The fast decoder's functions for the body of Save Quotes and for the
// quote messages (QuoteData and what it holds), which Save NIFTY's body
// carries too (fastjson_collector.go).

import "mdc/gateway/gen/mdcv1"

func (d *fastDecoder) quotesData() *mdcv1.QuotesData {
	m := &mdcv1.QuotesData{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "timestamp":
			if d.field(&seen, 1) {
				m.Timestamp = d.str()
			}
		case "timezone":
			if d.field(&seen, 2) {
				m.Timezone = d.str()
			}
		case "quotes":
			if d.field(&seen, 3) {
				m.Quotes = d.quoteItems()
			}
		default:
			d.decline()
		}
	}
	return m
}

// quoteItems reads a list of quotes; a null element is declined, as in
// shortlistEntries.
func (d *fastDecoder) quoteItems() []*mdcv1.QuoteItem {
	var items []*mdcv1.QuoteItem
	d.openArray()
	for d.element() {
		items = append(items, d.quoteItem())
	}
	return items
}

func (d *fastDecoder) quoteItem() *mdcv1.QuoteItem {
	m := &mdcv1.QuoteItem{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "nseSymbol", "nse_symbol":
			if d.field(&seen, 1) {
				m.NseSymbol = d.str()
			}
		case "quoteData", "quote_data":
			if d.field(&seen, 2) {
				m.QuoteData = d.quoteData()
			}
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) quoteData() *mdcv1.QuoteData {
	m := &mdcv1.QuoteData{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "status":
			if d.field(&seen, 1) {
				m.Status = mdcv1.QuoteStatus(d.enum(mdcv1.QuoteStatus_value))
			}
		case "payload":
			if d.field(&seen, 2) {
				m.Payload = d.quotePayload()
			}
		default:
			d.decline()
		}
	}
	return m
}

// quotePayload reads the broker's quote. Its JSON names are the proto names
// (json_name is set to them), so each field has one spelling.
func (d *fastDecoder) quotePayload() *mdcv1.QuotePayload {
	m := &mdcv1.QuotePayload{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "last_price":
			if d.field(&seen, 1) {
				m.LastPrice = d.double()
			}
		case "day_change":
			if d.field(&seen, 2) {
				m.DayChange = d.double()
			}
		case "day_change_perc":
			if d.field(&seen, 3) {
				m.DayChangePerc = d.double()
			}
		case "volume":
			if d.field(&seen, 4) {
				m.Volume = d.double()
			}
		case "average_price":
			if d.field(&seen, 5) {
				m.AveragePrice = d.double()
			}
		case "bid_quantity":
			if d.field(&seen, 6) {
				m.BidQuantity = d.double()
			}
		case "bid_price":
			if d.field(&seen, 7) {
				m.BidPrice = d.double()
			}
		case "upper_circuit_limit":
			if d.field(&seen, 8) {
				m.UpperCircuitLimit = d.double()
			}
		case "lower_circuit_limit":
			if d.field(&seen, 9) {
				m.LowerCircuitLimit = d.double()
			}
		case "high_trade_range":
			if d.field(&seen, 10) {
				m.HighTradeRange = d.double()
			}
		case "low_trade_range":
			if d.field(&seen, 11) {
				m.LowTradeRange = d.double()
			}
		case "implied_volatility":
			if d.field(&seen, 12) {
				m.ImpliedVolatility = d.double()
			}
		case "last_trade_quantity":
			if d.field(&seen, 13) {
				m.LastTradeQuantity = d.double()
			}
		case "market_cap":
			if d.field(&seen, 14) {
				m.MarketCap = d.double()
			}
		case "offer_price":
			if d.field(&seen, 15) {
				m.OfferPrice = d.double()
			}
		case "offer_quantity":
			if d.field(&seen, 16) {
				m.OfferQuantity = d.double()
			}
		case "oi_day_change":
			if d.field(&seen, 17) {
				m.OiDayChange = d.double()
			}
		case "oi_day_change_percentage":
			if d.field(&seen, 18) {
				m.OiDayChangePercentage = d.double()
			}
		case "open_interest":
			if d.field(&seen, 19) {
				m.OpenInterest = d.double()
			}
		case "previous_open_interest":
			if d.field(&seen, 20) {
				m.PreviousOpenInterest = d.double()
			}
		case "total_buy_quantity":
			if d.field(&seen, 21) {
				m.TotalBuyQuantity = d.double()
			}
		case "total_sell_quantity":
			if d.field(&seen, 22) {
				m.TotalSellQuantity = d.double()
			}
		case "week_52_high":
			if d.field(&seen, 23) {
				m.Week_52High = d.double()
			}
		case "week_52_low":
			if d.field(&seen, 24) {
				m.Week_52Low = d.double()
			}
		case "last_trade_time":
			if d.field(&seen, 25) {
				m.LastTradeTime = d.double()
			}
		case "ohlc":
			if d.field(&seen, 26) {
				m.Ohlc = d.ohlc()
			}
		case "depth":
			if d.field(&seen, 27) {
				m.Depth = d.depth()
			}
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) ohlc() *mdcv1.Ohlc {
	m := &mdcv1.Ohlc{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "open":
			if d.field(&seen, 1) {
				m.Open = d.double()
			}
		case "high":
			if d.field(&seen, 2) {
				m.High = d.double()
			}
		case "low":
			if d.field(&seen, 3) {
				m.Low = d.double()
			}
		case "close":
			if d.field(&seen, 4) {
				m.Close = d.double()
			}
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) depth() *mdcv1.Depth {
	m := &mdcv1.Depth{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "buy":
			if d.field(&seen, 1) {
				m.Buy = d.depthLevels()
			}
		case "sell":
			if d.field(&seen, 2) {
				m.Sell = d.depthLevels()
			}
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) depthLevels() []*mdcv1.DepthLevel {
	var levels []*mdcv1.DepthLevel
	d.openArray()
	for d.element() {
		if len(levels) == maxDepthLevels {
			// Over the server's cap: checkShape names the list.
			d.decline()
			break
		}
		levels = append(levels, d.depthLevel())
	}
	return levels
}

func (d *fastDecoder) depthLevel() *mdcv1.DepthLevel {
	m := &mdcv1.DepthLevel{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "price":
			if d.field(&seen, 1) {
				m.Price = d.double()
			}
		case "quantity":
			if d.field(&seen, 2) {
				m.Quantity = d.double()
			}
		default:
			d.decline()
		}
	}
	return m
}

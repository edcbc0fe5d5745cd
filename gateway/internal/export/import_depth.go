package export

import (
	"strconv"

	"mdc/gateway/gen/mdcv1"
)

// parseDepth reads a depth cell, the compact proto JSON of an mdc.v1.Depth
// that appendDepthJSON writes ({"buy":[{"price":99.5,"quantity":10}],
// "sell":[...]}). That form is read here directly; any other text goes
// to protojson, which reads every valid form and words the errors: the
// generic reader was more than half of the gateway's CPU per imported row
// of a full quote (docs/performance.md, "Import").
func parseDepth(text string) (*mdcv1.Depth, error) {
	if d, ok := parseCompactDepth(text); ok {
		return d, nil
	}
	d := &mdcv1.Depth{}
	if err := protoJSONIn.Unmarshal([]byte(text), d); err != nil {
		return nil, err
	}
	return d, nil
}

// depthScanner reads the compact form; any surprise gives up (ok false).
type depthScanner struct {
	s  string
	at int
}

func (p *depthScanner) eat(lit string) bool {
	if len(p.s)-p.at >= len(lit) && p.s[p.at:p.at+len(lit)] == lit {
		p.at += len(lit)
		return true
	}
	return false
}

// number reads a JSON number (digits, sign, point, exponent only: no NaN,
// Infinity or hexadecimal, which strconv would take).
func (p *depthScanner) number() (float64, bool) {
	start := p.at
	for p.at < len(p.s) {
		c := p.s[p.at]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.at++
			continue
		}
		break
	}
	if p.at == start {
		return 0, false
	}
	f, err := strconv.ParseFloat(p.s[start:p.at], 64)
	return f, err == nil
}

func (p *depthScanner) level() (*mdcv1.DepthLevel, bool) {
	l := &mdcv1.DepthLevel{}
	if !p.eat("{") {
		return nil, false
	}
	if p.eat("}") {
		return l, true
	}
	if p.eat(`"price":`) {
		f, ok := p.number()
		if !ok {
			return nil, false
		}
		l.Price = &f
		if p.eat("}") {
			return l, true
		}
		if !p.eat(",") {
			return nil, false
		}
	}
	if !p.eat(`"quantity":`) {
		return nil, false
	}
	f, ok := p.number()
	if !ok || !p.eat("}") {
		return nil, false
	}
	l.Quantity = &f
	return l, true
}

func (p *depthScanner) side(name string, out *[]*mdcv1.DepthLevel) bool {
	if !p.eat(`"` + name + `":[`) {
		return false
	}
	for {
		l, ok := p.level()
		if !ok {
			return false
		}
		*out = append(*out, l)
		if p.eat("]") {
			return true
		}
		if !p.eat(",") {
			return false
		}
	}
}

func parseCompactDepth(text string) (*mdcv1.Depth, bool) {
	p := &depthScanner{s: text}
	d := &mdcv1.Depth{}
	if !p.eat("{") {
		return nil, false
	}
	if p.eat("}") {
		return d, p.at == len(text)
	}
	if p.s[p.at:] != "" && p.eat(`"buy"`) {
		p.at -= len(`"buy"`)
		if !p.side("buy", &d.Buy) {
			return nil, false
		}
		if p.eat("}") {
			return d, p.at == len(text)
		}
		if !p.eat(",") {
			return nil, false
		}
	}
	if !p.side("sell", &d.Sell) || !p.eat("}") {
		return nil, false
	}
	return d, p.at == len(text)
}

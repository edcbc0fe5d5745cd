package openapigen

import (
	"fmt"

	"google.golang.org/grpc/codes"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/rpcpolicy"
)

// access says which token an RPC needs ((mdc.v1.rpc).access).
type access = mdcv1.Access

const (
	public         = mdcv1.Access_ACCESS_PUBLIC    // no Authorization header
	developerToken = mdcv1.Access_ACCESS_DEVELOPER // a developer or an admin token
	adminToken     = mdcv1.Access_ACCESS_ADMIN     // an admin token; a developer token is 403
)

// clockUse says what the backtest clock (X-Current-Timestamp and
// X-Current-Timezone, docs/api.md section 9.3) does to an RPC
// ((mdc.v1.rpc).backtest_clock).
type clockUse = mdcv1.BacktestClock

const (
	clockIgnored = mdcv1.BacktestClock_BACKTEST_CLOCK_IGNORED // the answer does not depend on time
	clockCuts    = mdcv1.BacktestClock_BACKTEST_CLOCK_CUTS    // data stamped at or after the clock is left out
	clockForbids = mdcv1.BacktestClock_BACKTEST_CLOCK_FORBIDS // as clockCuts, and asking for an instant at or after it is 403
)

// rpcContract is what the server does with one RPC beyond what its
// messages and route say: the token it needs, how the backtest clock
// applies, and the error statuses particular to it. It is read from the
// RPC's (mdc.v1.rpc) option (proto/mdc/v1/options.proto), written beside
// the RPC; the statuses every RPC of its kind can answer (400, 401, 413,
// 429, 503, ...) are added by rule in errors.go.
type rpcContract struct {
	access access
	clock  clockUse
	// errors maps an HTTP status to when this RPC answers it. An entry for
	// a status the rules also add replaces their wording.
	errors map[int]string
	// bodyOptional: no body at all is a valid request (it means {}).
	bodyOptional bool
}

// contractOf reads the contract of rpc (a full name) from its options. An
// RPC that is not in the descriptors, or lacks an option, is an error that
// names it: the document cannot say who may call it or how it fails.
func contractOf(rpc string) (rpcContract, error) {
	md, err := rpcpolicy.Lookup(rpc)
	if err != nil {
		return rpcContract{}, err
	}
	if err := rpcpolicy.Check(md); err != nil {
		return rpcContract{}, err
	}
	p := rpcpolicy.Of(md)
	c := rpcContract{access: p.GetAccess(), clock: p.GetBacktestClock(), bodyOptional: p.GetBodyOptional()}
	for _, e := range p.GetErrors() {
		if c.errors == nil {
			c.errors = map[int]string{}
		}
		// The HTTP status the gateway answers the code with.
		status := apierror.HTTPStatus(codes.Code(e.GetCode()))
		if earlier, ok := c.errors[status]; ok {
			c.errors[status] = fmt.Sprintf("%s Or: %s", earlier, e.GetWhen())
			continue
		}
		c.errors[status] = e.GetWhen()
	}
	return c, nil
}

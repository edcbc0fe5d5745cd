package e2e

// The day replay's `symbols` across a rename (docs/api.md section 13.5): a
// listed symbol of the security master replays its instrument's records of
// the day, under the symbol that named the instrument that day, each
// record with its stored symbol; asked by the old or the new symbol, the
// same records.

import (
	"slices"
	"testing"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestInstrumentsReplayFollowsTheRename(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	oldSym, newSym := uniqueSymbol(t, "PO"), uniqueSymbol(t, "PN")
	other := uniqueSymbol(t, "PX") // not in the security master
	storeRenameHistory(t, s, token, "Replay Co", oldSym, newSym)
	postQuotes(t, s, token, other, devQuote{"2034-03-15T09:30:00", 50, 1}, devQuote{"2034-03-14T09:30:00", 49, 1})

	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
	ctx := withToken(streamContext(t), token)
	replay := func(day string, symbols ...string) []string {
		t.Helper()
		return keysOf(replayAll(t, client, ctx, &mdcv1.ReplayDayRequest{
			Date: day, Symbols: symbols, Kinds: []string{"quotes"}}))
	}
	// IST 10:00 is 04:30 UTC.
	before := []string{"Q " + oldSym + " 2034-03-14T04:30:00Z", "Q " + oldSym + " 2034-03-14T08:30:00Z"}
	after := []string{"Q " + newSym + " 2034-03-15T04:30:00Z"}
	for _, asked := range [][]string{{oldSym}, {newSym}, {oldSym, newSym}} {
		if got := replay("2034-03-14", asked...); !slices.Equal(got, before) {
			t.Errorf("replay of 2034-03-14 by %v: %v, want %v", asked, got, before)
		}
		// The rename's day: NEW's records, not the late OLD write.
		if got := replay("2034-03-15", asked...); !slices.Equal(got, after) {
			t.Errorf("replay of 2034-03-15 by %v: %v, want %v", asked, got, after)
		}
	}
	// A symbol the master does not know is replayed as stored, beside the
	// instrument's symbol of the day, in replay order.
	want := []string{"Q " + other + " 2034-03-15T04:00:00Z", "Q " + newSym + " 2034-03-15T04:30:00Z"}
	if got := replay("2034-03-15", other, oldSym); !slices.Equal(got, want) {
		t.Errorf("replay of 2034-03-15 by %s,%s: %v, want %v", other, oldSym, got, want)
	}
	// The replay of every symbol still sends the late OLD write, as stored.
	var mine []string
	for _, key := range replay("2034-03-15") {
		if key == "Q "+oldSym+" 2034-03-15T05:30:00Z" || key == after[0] {
			mine = append(mine, key)
		}
	}
	if wantAll := []string{after[0], "Q " + oldSym + " 2034-03-15T05:30:00Z"}; !slices.Equal(mine, wantAll) {
		t.Errorf("replay of every symbol on 2034-03-15: %v, want %v", mine, wantAll)
	}
}

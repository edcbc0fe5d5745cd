package e2e

// One corporate action entered by an admin (docs/api.md section 13.7):
// by symbol or ISIN, idempotent, the same key the file import uses, and
// every bad field named.

import (
	"math"
	"testing"
)

func TestAdminEntersCorporateActions(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	oldSym, newSym, isin := uniqueSymbol(t, "EO"), uniqueSymbol(t, "EN"), uniqueIsin(t)
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=equity_list",
		equityListHeader+newSym+",Entered Co,EQ,02-JAN-2031,10,1,"+isin+",10\n"), "equity_list", 1, 0)
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=symbol_changes",
		symbolChangeHeader+"Entered Co,"+oldSym+","+newSym+",15-Sep-2033\n"), "symbol_changes", 1, 0)
	postQuotes(t, s, token, oldSym, adjustedHistory...)

	enter := func(body map[string]any) *Response {
		return s.Do(t, "POST", "/v1/admin/corporate-actions", s.AdminToken(), body)
	}
	expectEntered := func(r *Response, created bool, description string, factor float64) {
		t.Helper()
		expectStatus(t, r, 200)
		action := asObject(r.JSON["action"])
		got, _ := r.JSON["created"].(bool) // false may be left out
		if got != created || action["isin"] != isin || action["description"] != description {
			t.Fatalf("want created %v, %q: %s", created, description, r.Text())
		}
		if factor != 0 && math.Abs(num(t, action["priceFactor"])-factor) > 1e-12 {
			t.Fatalf("priceFactor, want %v: %s", factor, r.Text())
		}
	}
	// A 1:1 bonus by the symbol of its ex-date, then the same again.
	bonus := map[string]any{"symbol": oldSym, "kind": "bonus", "exDate": "2033-08-08", "newShares": 1, "heldShares": 1}
	expectEntered(enter(bonus), true, "Bonus 1:1", 0.5)
	expectEntered(enter(bonus), false, "Bonus 1:1", 0.5)
	// The file import's row of the same bonus is the same action.
	expectImport(t, postCSV(t, s, "/v1/admin/corporate-actions/import",
		corporateActionsHeader+oldSym+",Entered Co,EQ,Bonus 1:1,10,08-AUG-2033,-,-,-\n"), "corporate_actions", 0, 1)
	// A split and a dividend by ISIN.
	expectEntered(enter(map[string]any{"isin": isin, "kind": "split", "exDate": "2033-08-16",
		"oldFaceValue": 10, "newFaceValue": 2}), true, "Split From Rs 10 To Rs 2", 0.2)
	expectEntered(enter(map[string]any{"isin": isin, "kind": "dividend", "exDate": "2033-08-23", "amount": 4}),
		true, "Dividend Rs 4", 0)
	// The same key with other numbers is refused (FAILED_PRECONDITION),
	// nothing changed.
	other := enter(map[string]any{"isin": isin, "kind": "dividend", "exDate": "2033-08-23", "amount": 5,
		"description": "Dividend Rs 4"})
	expectStatus(t, other, 412)
	expectMessageNames(t, other, "other numbers")

	// Listed with their factors, and applied by the adjusted reads as the
	// file's actions are (the same hand-computed candles).
	list := s.Do(t, "GET", "/v1/developer/corporate-actions?symbol="+newSym, token, nil)
	expectStatus(t, list, 200)
	if a := asSlice(list.JSON["actions"]); len(a) != 3 || math.Abs(num(t, field(a[2], "priceFactor"))-0.9) > 1e-12 {
		t.Fatalf("corporate-actions: %s", list.Text())
	}
	after := map[string]string{"X-Current-Timestamp": "2033-09-01T12:00:00", "X-Current-Timezone": "Asia/Kolkata"}
	expectDayCandles(t, "all", s.Do(t, "GET", query("/v1/developer/historical-candles", map[string]string{
		"symbol": newSym, "interval": "1day", "adjustment": "all",
		"start_datetime": "2033-08-01T00:00:00", "end_datetime": "2033-09-01T00:00:00"}), token, nil, after), "all", []dayCandle{
		{"2033-08-04T18:30:00Z", 36, 10000}, {"2033-08-07T18:30:00Z", 36, 10000},
		{"2033-08-11T18:30:00Z", 37.8, 10000}, {"2033-08-15T18:30:00Z", 37.8, 10000},
		{"2033-08-21T18:30:00Z", 36, 10000}, {"2033-08-22T18:30:00Z", 36, 10000},
	})

	// Bad input: each field named, nothing stored.
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"isin": isin, "kind": "bonus", "exDate": "2033-08-30", "newShares": 0, "heldShares": 1}, "new_shares"},
		{map[string]any{"isin": isin, "kind": "bonus", "exDate": "2033-08-30", "newShares": 1, "heldShares": -2}, "held_shares"},
		{map[string]any{"isin": isin, "kind": "split", "exDate": "2033-08-30", "oldFaceValue": 2, "newFaceValue": 10}, "new_face_value"},
		{map[string]any{"isin": isin, "kind": "dividend", "exDate": "2033-08-30", "amount": 2, "newShares": 1}, "new_shares"},
		{map[string]any{"isin": isin, "kind": "demerger", "exDate": "2033-08-30"}, "kind"},
		{map[string]any{"isin": isin, "kind": "dividend", "exDate": "2033-02-30", "amount": 2}, "ex_date"},
		{map[string]any{"isin": isin, "kind": "dividend", "amount": 2}, "ex_date"},
		// Outside the data: before the listing.
		{map[string]any{"isin": isin, "kind": "dividend", "exDate": "2030-12-31", "amount": 2}, "ex_date"},
		{map[string]any{"kind": "dividend", "exDate": "2033-08-30", "amount": 2}, "isin"},
		{map[string]any{"isin": isin, "symbol": newSym, "kind": "dividend", "exDate": "2033-08-30", "amount": 2}, "isin"},
		{map[string]any{"isin": "INE009A01022", "kind": "dividend", "exDate": "2033-08-30", "amount": 2}, "isin"},
		{map[string]any{"isin": uniqueIsin(t), "kind": "dividend", "exDate": "2033-08-30", "amount": 2}, "isin"},
		{map[string]any{"symbol": uniqueSymbol(t, "NONE"), "kind": "dividend", "exDate": "2033-08-30", "amount": 2}, "symbol"},
		// NEW was not the symbol before the rename.
		{map[string]any{"symbol": newSym, "kind": "dividend", "exDate": "2033-08-30", "amount": 2}, "symbol"},
		{map[string]any{"isin": isin, "kind": "dividend", "exDate": "2033-08-30", "amount": 2, "description": "a\tb"}, "description"},
	} {
		expectFieldError(t, enter(c.body), 400, c.field)
	}
	if a := asSlice(s.Do(t, "GET", "/v1/developer/corporate-actions?symbol="+newSym, token, nil).JSON["actions"]); len(a) != 3 {
		t.Fatalf("bad entries stored something: %d actions", len(a))
	}
	// Developers may not enter actions.
	expectStatus(t, s.Do(t, "POST", "/v1/admin/corporate-actions", token, bonus), 403)
}

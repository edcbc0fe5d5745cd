import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../api";
import { type Column, DataTable } from "../components/DataTable";
import { Field } from "../components/Field";
import { Link } from "../components/Link";
import { Sparkline } from "../components/Sparkline";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { SymbolSearch, storedSymbol } from "../components/SymbolSearch";
import { formatCount, formatPercent, formatPrice, formatSignedPrice } from "../format";
import { errorText } from "../formerrors";
import { useAsync } from "../hooks";
import { type Route, SYMBOL, formatRoute } from "../route";
import { updateRoute } from "../router";
import { IST_LABEL, formatIST } from "../time";
import { MAX_SYMBOLS, type WatchRow, change, loadWatchlist, saveWatchlist } from "../watchlist";
import { plural } from "../words";
import { NIFTY, useWatchlist } from "./watchlist/useWatchlist";

type WatchlistRoute = Extract<Route, { page: "watchlist" }>;

/**
 * Many symbols at once (NIFTY 50 as NIFTY): each one's last price, change
 * from the previous session's close, the day's volume and an intraday
 * sparkline, kept current by the watch streams; sortable; the list is kept
 * in this browser. A symbol opens its chart.
 */
export function WatchlistPage({ route }: { route: WatchlistRoute }): VNode {
  const [symbols, setSymbols] = useState(loadWatchlist);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => saveWatchlist(symbols), [symbols]);
  const data = useWatchlist(symbols);
  // The day's symbols, for suggestions.
  const known = useAsync(async () => (data.date ? api().call("GET", "/v1/dashboard/coverage", { params: { query: { date: data.date } } }) : undefined), [data.date]);
  const suggestions = useMemo(
    () => [NIFTY, ...(known.data?.symbols ?? []).map((s) => s.nseSymbol ?? "")].filter((s) => s && !symbols.includes(s)),
    [known.data, symbols],
  );

  const add = (raw: string) => {
    const typed = raw.trim();
    if (!typed) return setError("Enter a symbol, for example RELIANCE, or NIFTY for the index.");
    if (!SYMBOL.test(typed)) return setError(`“${typed}” is not a symbol: symbols are 1-32 letters, digits and & . _ - (no spaces).`);
    const symbol = storedSymbol(suggestions, typed) ?? typed.toUpperCase();
    if (symbols.includes(symbol)) return setError(`${symbol} is already on the list.`);
    if (symbols.length >= MAX_SYMBOLS) return setError(`The list holds at most ${MAX_SYMBOLS} symbols.`);
    setError(undefined);
    setText("");
    setSymbols([...symbols, symbol]);
  };
  const remove = (symbol: string) => setSymbols(symbols.filter((s) => s !== symbol));

  const chartOf = (s: string) => formatRoute({ page: "chart", symbol: s, date: data.date, interval: "5minute" });
  const columns: Column<WatchRow>[] = [
    { key: "symbol", label: "Symbol", value: (r) => r.symbol, render: (r) => <Link to={chartOf(r.symbol)}>{r.symbol === NIFTY ? "NIFTY 50" : r.symbol}</Link> },
    { key: "last", label: "Last", value: (r) => r.last, render: (r) => <span data-field="last">{formatPrice(r.last)}</span>, numeric: true },
    { key: "change", label: "Change", value: (r) => change(r).abs, render: (r) => <span data-field="change" class={sign(change(r).abs)}>{formatSignedPrice(change(r).abs)}</span>, numeric: true },
    { key: "pct", label: "Change %", value: (r) => change(r).pct, render: (r) => <span data-field="pct" class={sign(change(r).pct)}>{formatPercent(change(r).pct)}</span>, numeric: true },
    { key: "volume", label: "Volume", value: (r) => (r.symbol === NIFTY ? undefined : r.volume), render: (r) => <span data-field="volume">{r.symbol === NIFTY ? "—" : formatCount(r.volume)}</span>, numeric: true },
    { key: "time", label: `As of (${IST_LABEL})`, value: (r) => r.time, render: (r) => (r.time ? formatIST(new Date(r.time), { zone: false }) : "no quote"), csv: (r) => (r.time ? formatIST(new Date(r.time), { zone: false }) : "") },
    { key: "spark", label: "Today", text: "Intraday", render: (r) => <Sparkline points={r.spark} reference={r.previousClose} label={`${r.symbol} today`} /> },
    { key: "remove", label: <span class="visually-hidden">Remove</span>, text: "Remove", render: (r) => <button type="button" class="small" onClick={() => remove(r.symbol)} aria-label={`Remove ${r.symbol}`}>Remove</button> },
  ];

  return (
    <section>
      <h1>Watchlist</h1>
      <form class="toolbar" noValidate onSubmit={(e) => { e.preventDefault(); add(text); }}>
        <Field id="wl-symbol" label="Add a symbol" className="inline" error={error}>
          {(input) => (
            <SymbolSearch {...input} shortcut value={text} symbols={suggestions} onValue={setText}
              describe={(s) => (s === NIFTY ? "NIFTY 50 index" : undefined)} onPick={(s) => add(s)} />
          )}
        </Field>
        <button type="submit" class="primary">Add</button>
        <div class="field inline">
          <span class="label-space" aria-hidden="true">&nbsp;</span>
          <span class={`live-status ${data.live.status}`} role="status" data-testid="live-status" data-state={data.live.status}>
            <span class="live-dot" aria-hidden="true" />{" "}
            {data.live.status === "live" ? `Live${data.live.lastEvent ? `; last update ${formatIST(data.live.lastEvent)}` : ""}`
              : data.live.status === "connecting" ? "Connecting…" : data.live.status === "failed" ? `Stopped: ${errorText(data.live.error)}` : "Off"}
          </span>
        </div>
      </form>
      <p class="note" data-testid="watchlist-note">
        {data.date ? <>Prices of {data.date}, the latest trading day with data; change from the previous session's close. </> : null}
        The list is kept in this browser. Open a symbol for its chart.
      </p>
      {data.state === "error" && <ErrorNote error={data.error} retry={data.reload} />}
      {data.state === "loading" && data.rows.length === 0 && symbols.length > 0 && <Loading what="the watchlist" />}
      {symbols.length === 0 ? (
        <Empty>The list is empty: add a symbol above.</Empty>
      ) : data.rows.length > 0 && (
        <DataTable caption={`${plural(data.rows.length, "symbol")}; sort by any column`} columns={columns} rows={data.rows}
          rowKey={(r) => r.symbol} sort={route.sort} onSort={(sort) => updateRoute(route, { sort })} testId="watchlist-table" csv={["watchlist", data.date]} />
      )}
    </section>
  );
}

function sign(n: number | undefined): string | undefined {
  return n === undefined || Math.abs(n) < 1e-9 ? undefined : n > 0 ? "gain" : "loss";
}

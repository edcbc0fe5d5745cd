import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../api";
import { holidaysOf } from "../calendar";
import { cadence, expectedMinutes, minutesIn, missingRanges, rangeText } from "../coverage";
import { type Column, DataTable } from "../components/DataTable";
import { DateInput, Field } from "../components/Field";
import { Link } from "../components/Link";
import { RefreshPicker, useAutoRefresh } from "../components/RefreshPicker";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { formatCount } from "../format";
import { useAsync } from "../hooks";
import { type Route, formatRoute } from "../route";
import { updateRoute } from "../router";
import { type SortSpec } from "../sort";
import { IST_LABEL, ago, checkDate, formatIST, stepTradingDay } from "../time";
import { plural } from "../words";

type CoverageRoute = Extract<Route, { page: "coverage" }>;
type Writer = Schemas["WriterActivity"];

/** A collector that has not written for this many minutes is silent (the URL's `silent` changes it). */
const SILENT_AFTER_MINUTES = 5;
/** Silence longer than this is a collector at rest (a weekend, a retired one), not an alert. */
const ALERT_WITHIN_MS = 24 * 3600_000;
const SILENT_CHOICES = [1, 2, 5, 10, 15, 30, 60];

interface SeriesRow {
  key: string;
  name: string;
  /** Where the chart of it is, when there is one. */
  chart?: string | undefined;
  minutes: number;
  records: number;
  ranges: { first: number; last: number }[];
  missing: { first: number; last: number }[];
  lastTime?: string | undefined;
}

/**
 * A session's minutes as a bar: data green, the gaps (what the Gaps column
 * counts) red, minutes still to come grey, and the minutes between a
 * periodic series' records (a shortlist's rhythm) pale green.
 */
function MinuteBar({ row, expected, total }: { row: SeriesRow; expected: number; total: number }): VNode {
  const text = row.missing.length ? `missing ${row.missing.map(rangeText).join(", ")}` : "no gap";
  return (
    <svg class="minute-bar" viewBox={`0 0 ${total} 10`} preserveAspectRatio="none" role="img" aria-label={`${row.name}: ${text}`}
      data-gaps={row.missing.length}>
      <rect x={0} y={0} width={total} height={10} class="future" />
      <rect x={0} y={0} width={expected} height={10} class="between" />
      {row.missing.map((r) => <rect key={`m${r.first}`} x={r.first} y={0} width={r.last - r.first + 1} height={10} class="missing" />)}
      {row.ranges.map((r) => <rect key={r.first} x={r.first} y={0} width={r.last - r.first + 1} height={10} class="present" />)}
    </svg>
  );
}

function status(w: Writer, now: Date, silentMinutes: number): { text: string; kind: "ok" | "warn" | "idle" } {
  const last = w.lastWriteTime ? new Date(w.lastWriteTime) : undefined;
  if (!last) return { text: "Never", kind: "idle" };
  if (now.getTime() - last.getTime() <= silentMinutes * 60_000) return { text: "Writing", kind: "ok" };
  return { text: `Silent for ${ago(last, now).replace(" ago", "")}`, kind: "warn" };
}

/**
 * For a trading day: which symbols have data in which minutes of the
 * session (gaps in red), NIFTY 50 and the shortlists likewise, and when
 * each collector (developer) last wrote, so a dead collector or a hole in
 * the data shows at a glance.
 */
export function CoveragePage({ route }: { route: CoverageRoute }): VNode {
  const [dateText, setDateText] = useState(route.date ?? "");
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  const [sort, setSort] = useState<SortSpec | undefined>({ key: "gaps", desc: true });
  const [now, setNow] = useState(() => new Date());
  useEffect(() => setDateText(route.date ?? ""), [route.date]);

  const silentMinutes = route.silent ?? SILENT_AFTER_MINUTES;
  const coverage = useAsync(async () => {
    const answer = await api().call("GET", "/v1/dashboard/coverage", { params: { query: route.date ? { date: route.date } : {} } });
    setNow(new Date());
    return { asked: route.date, ...answer };
  }, [route.date]);
  const date = route.date ?? coverage.data?.date;
  useEffect(() => {
    // Only an answer to the question without a date names the latest day (a reload keeps the old answer meanwhile).
    if (!route.date && coverage.data?.asked === undefined && coverage.data?.date) updateRoute(route, { date: coverage.data.date });
  }, [coverage.data, route.date]);
  useAutoRefresh(route.refresh, coverage.reload);
  // Collectors that wrote in the last day and then stopped for longer than the threshold.
  const silent = (coverage.data?.writers ?? []).filter((w) => {
    const last = w.lastWriteTime ? new Date(w.lastWriteTime).getTime() : undefined;
    return last !== undefined && now.getTime() - last > silentMinutes * 60_000 && now.getTime() - last <= ALERT_WITHIN_MS;
  });
  const holidays = useAsync(async () => (date ? holidaysOf(Number(date.slice(0, 4))) : new Set<string>()), [date?.slice(0, 4)]);

  const total = coverage.data?.sessionMinutes || 375;
  const expected = date ? expectedMinutes(date, total, now) : total;
  const toRow = (s: Schemas["SymbolCoverage"] | Schemas["ShortlistCoverage"], key: string, name: string, chart?: string, periodic = false): SeriesRow => {
    const ranges = (s.ranges ?? []).map((r) => ({ first: r.first ?? 0, last: r.last ?? 0 }));
    // Shortlists come every few minutes: only a missed one is a gap.
    const every = periodic ? cadence(ranges) : 1;
    return { key, name, chart, minutes: minutesIn(ranges), records: Number(s.records ?? 0), ranges, missing: missingRanges(ranges, expected, every), lastTime: s.lastTime };
  };
  const symbols = useMemo(() => (coverage.data?.symbols ?? []).map((s) =>
    toRow(s, s.nseSymbol ?? "", s.nseSymbol ?? "", formatRoute({ page: "chart", symbol: s.nseSymbol, date, interval: "5minute" }))), [coverage.data, expected]);
  const others = useMemo(() => [
    ...(coverage.data?.nifty ? [toRow(coverage.data.nifty, "NIFTY", "NIFTY 50", formatRoute({ page: "chart", symbol: "NIFTY", date, interval: "5minute" }))] : []),
    ...(coverage.data?.shortlists ?? []).map((s) => toRow(s, `${s.shortlistType} ${s.scope}`,
      `${s.shortlistType === "TOP_GAINERS" ? "Top gainers" : "Volume shockers"}, ${s.scope === "TOP_5" ? "top 5" : "full"}`,
      formatRoute({ page: "shortlist", type: s.shortlistType === "VOLUME_SHOCKERS" ? "VOLUME_SHOCKERS" : "TOP_GAINERS", scope: s.scope === "FULL" ? "FULL" : "TOP_5", date }), true)),
  ], [coverage.data, expected]);
  const withGaps = symbols.filter((s) => s.missing.length > 0);
  const shown = route.gaps ? withGaps : symbols;

  const show = (e: Event) => {
    e.preventDefault();
    const checked = checkDate(dateText);
    setDateError(checked.ok ? undefined : checked.error);
    if (checked.ok) updateRoute(route, { date: checked.value });
  };
  const step = (dir: -1 | 1) => date && updateRoute(route, { date: stepTradingDay(date, dir, holidays.data ?? new Set()) });

  const seriesColumns = (first: string): Column<SeriesRow>[] => [
    { key: "name", label: first, value: (r) => r.name, render: (r) => (r.chart ? <Link to={r.chart}>{r.name}</Link> : r.name) },
    { key: "minutes", label: `Minutes (of ${expected})`, text: "Minutes with data", value: (r) => r.minutes, numeric: true },
    { key: "gaps", label: "Gaps", value: (r) => r.missing.length, numeric: true },
    {
      key: "missing", label: "Missing (IST)", value: (r) => minutesIn(r.missing),
      render: (r) => (r.missing.length ? <span class="gap-text">{r.missing.slice(0, 4).map(rangeText).join(", ")}{r.missing.length > 4 ? ` and ${r.missing.length - 4} more` : ""}</span> : "—"),
      csv: (r) => r.missing.map(rangeText).join(" "),
    },
    { key: "records", label: "Records", value: (r) => r.records, render: (r) => formatCount(r.records), numeric: true },
    {
      key: "last", label: `Latest (${IST_LABEL})`, value: (r) => r.lastTime,
      render: (r) => formatIST(r.lastTime, { zone: false }), csv: (r) => formatIST(r.lastTime, { zone: false }),
    },
    { key: "bar", label: "09:15 to 15:30", text: "Session", render: (r) => <MinuteBar row={r} expected={expected} total={total} /> },
  ];
  const writerColumns: Column<Writer>[] = [
    { key: "developer", label: "Collector (developer)", value: (w) => w.username },
    { key: "kind", label: "Writes", value: (w) => w.kind },
    {
      key: "status", label: "Status", value: (w) => status(w, now, silentMinutes).text,
      render: (w) => <span class={`badge freshness-${status(w, now, silentMinutes).kind}`}>{status(w, now, silentMinutes).text}</span>,
    },
    {
      key: "lastWrite", label: `Last write (${IST_LABEL})`, value: (w) => w.lastWriteTime,
      render: (w) => <>{formatIST(w.lastWriteTime, { zone: false })}{w.lastWriteTime && <span class="note-inline"> ({ago(new Date(w.lastWriteTime), now)})</span>}</>,
      csv: (w) => formatIST(w.lastWriteTime, { zone: false }),
    },
    {
      key: "lastRecord", label: `Latest record (${IST_LABEL})`, value: (w) => w.lastRecordTime,
      render: (w) => formatIST(w.lastRecordTime, { zone: false }), csv: (w) => formatIST(w.lastRecordTime, { zone: false }),
    },
    { key: "dayRecords", label: `Records of ${date ?? "the day"}`, value: (w) => Number(w.dayRecords ?? 0), render: (w) => formatCount(Number(w.dayRecords ?? 0)), numeric: true },
  ];

  return (
    <section>
      <h1>Coverage</h1>
      <form class="toolbar" onSubmit={show} noValidate>
        <Field id="cov-date" label={`Date (${IST_LABEL})`} className="inline" error={dateError}>
          {(input) => <DateInput {...input} value={dateText} onValue={setDateText} />}
        </Field>
        <button type="submit" class="primary">Show</button>
        <div class="field inline">
          <span class="label-space" aria-hidden="true">&nbsp;</span>
          <span class="buttons">
            <button type="button" onClick={() => step(-1)} disabled={!date}>◀ Previous day</button>
            <button type="button" onClick={() => step(1)} disabled={!date}>Next day ▶</button>
            <button type="button" onClick={() => (route.date ? updateRoute(route, { date: undefined }) : coverage.reload())}>Latest</button>
            <button type="button" onClick={coverage.reload}>Refresh</button>
          </span>
        </div>
        <RefreshPicker id="cov-refresh" value={route.refresh} onChange={(refresh) => updateRoute(route, { refresh })} />
        <Field id="cov-silent" label="Silent after" className="inline">
          {(input) => (
            <select {...input} value={String(silentMinutes)} onChange={(e) => updateRoute(route, { silent: Number(e.currentTarget.value) === SILENT_AFTER_MINUTES ? undefined : Number(e.currentTarget.value) })}>
              {SILENT_CHOICES.map((m) => <option key={m} value={String(m)}>{m} min</option>)}
            </select>
          )}
        </Field>
      </form>
      {silent.length > 0 && (
        <div class="status error silent-alert" role="alert" data-testid="silent-alert">
          <p>{plural(silent.length, "collector")} silent for more than {silentMinutes} min:</p>
          <ul>
            {silent.map((w) => (
              <li key={`${w.developerId} ${w.kind}`} data-collector={w.username}>
                {w.username} ({w.kind}): nothing written since {formatIST(w.lastWriteTime)}, {ago(new Date(w.lastWriteTime!), now)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {coverage.state === "error" && <ErrorNote error={coverage.error} retry={coverage.reload} />}
      {coverage.state === "loading" && !coverage.data && <Loading what="the coverage" />}
      {coverage.data && !coverage.data.date && <Empty>No market data is stored yet.</Empty>}
      {coverage.data?.date && (
        <>
          <p class="note" data-testid="coverage-summary">
            {date}: {plural(symbols.length, "symbol")} with quotes, {plural(withGaps.length, "symbol")} with gaps
            {expected < total ? ` (the session so far: ${plural(expected, "minute")} of ${total})` : ` in the session's ${total} minutes`}.
            As of {formatIST(now)}.
          </p>
          <h2>Collectors</h2>
          {(coverage.data.writers ?? []).length === 0 ? (
            <Empty>No developer has written market data yet.</Empty>
          ) : (
            <DataTable caption="When each collector last wrote, by kind of record" columns={writerColumns} rows={coverage.data.writers ?? []}
              rowKey={(w) => `${w.developerId} ${w.kind}`} testId="writers-table" csv={["collectors", date]} />
          )}
          <h2>NIFTY 50 and shortlists</h2>
          {others.length === 0 ? <Empty>No NIFTY quote or shortlist is stored for {date}.</Empty> : (
            <DataTable caption="Minutes with data" columns={seriesColumns("Series")} rows={others} rowKey={(r) => r.key} testId="series-coverage" />
          )}
          <h2>Symbols</h2>
          <div class="toolbar">
            <label class="check">
              <input type="checkbox" checked={Boolean(route.gaps)} onChange={(e) => updateRoute(route, { gaps: e.currentTarget.checked || undefined })} />
              Only symbols with gaps ({formatCount(withGaps.length)})
            </label>
          </div>
          {shown.length === 0 ? (
            <Empty>{route.gaps ? "No symbol has a gap." : `No quote is stored for ${date}.`}</Empty>
          ) : (
            <DataTable caption={`${plural(shown.length, "symbol")}; sort by any column`} columns={seriesColumns("Symbol")}
              rows={shown} rowKey={(r) => r.key} sort={sort} onSort={setSort} testId="symbol-coverage" csv={["coverage", date]} />
          )}
        </>
      )}
    </section>
  );
}

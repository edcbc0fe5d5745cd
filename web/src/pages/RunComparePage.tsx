import type { VNode } from "preact";
import { type Column, DataTable } from "../components/DataTable";
import { EquityCurve } from "../components/EquityCurve";
import { Link } from "../components/Link";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { formatCount, formatPercent, formatSignedPrice } from "../format";
import { useAsync } from "../hooks";
import { type Route, formatRoute } from "../route";
import { type Run, type RunAnalysis, analyseRun, listRuns } from "../runs";
import { HIT_RATE_DEFINITION, PNL_DEFINITION, type RunStats } from "../runstats";
import { formatIST } from "../time";

type CompareRoute = Extract<Route, { page: "compare" }>;

interface Compared {
  run: Run;
  analysis: RunAnalysis;
}

/** One line of the comparison: a figure of every run. */
interface Metric {
  key: string;
  label: string;
  /** The figure as shown, and as written to the CSV. */
  show: (s: RunStats) => string;
  raw: (s: RunStats) => number | undefined;
  title?: string;
}

const round2 = (n: number | undefined) => (n === undefined ? undefined : Math.round(n * 100) / 100);

const METRICS: Metric[] = [
  { key: "orders", label: "Orders", show: (s) => formatCount(s.orders), raw: (s) => s.orders },
  { key: "target", label: "Target hit", show: (s) => formatCount(s.target), raw: (s) => s.target },
  { key: "stop", label: "Stop hit", show: (s) => formatCount(s.stop), raw: (s) => s.stop },
  { key: "open", label: "Open (valued at the close)", show: (s) => formatCount(s.open), raw: (s) => s.open },
  { key: "noData", label: "No data", show: (s) => formatCount(s.noData), raw: (s) => s.noData },
  {
    key: "hitRate", label: "Hit rate %", title: HIT_RATE_DEFINITION,
    show: (s) => (s.hitRate === undefined ? "—" : `${s.hitRate.toFixed(1)}%`), raw: (s) => round2(s.hitRate),
  },
  { key: "pnl", label: "P&L per share", title: PNL_DEFINITION, show: (s) => formatSignedPrice(s.pnlPerShare), raw: (s) => round2(s.pnlPerShare) },
  { key: "avgReturn", label: "Avg return %", title: PNL_DEFINITION, show: (s) => formatPercent(s.avgReturnPercent), raw: (s) => round2(s.avgReturnPercent) },
];

/** Two or more runs side by side: their totals, and their equity curves on one chart. */
export function RunComparePage({ route }: { route: CompareRoute }): VNode {
  const compared = useAsync(async (): Promise<Compared[]> => {
    const runs = await listRuns();
    const chosen = route.runIds.map((id) => runs.find((r) => r.id === id)).filter((r): r is Run => r !== undefined);
    return Promise.all(chosen.map(async (run) => ({ run, analysis: await analyseRun(run.id ?? "") })));
  }, [route.runIds.join(",")]);

  const name = (r: Run) => r.name || `Run ${r.id}`;
  const found = compared.data;
  const missing = found ? route.runIds.filter((id) => !found.some((c) => c.run.id === id)) : [];
  const columns: Column<Metric>[] = [
    { key: "metric", label: "", text: "Figure", value: (m) => m.label, render: (m) => <span title={m.title}>{m.label}</span> },
    ...(compared.data ?? []).map((c, i): Column<Metric> => ({
      key: `run${i}`, label: <Link to={formatRoute({ page: "run", runId: c.run.id ?? "" })}>{name(c.run)}</Link>, text: name(c.run),
      render: (m) => m.show(c.analysis.stats), csv: (m) => m.raw(c.analysis.stats), numeric: true,
    })),
  ];
  return (
    <section>
      <p class="crumbs"><Link to="/runs">Runs</Link> /</p>
      <h1>Compare runs</h1>
      {route.runIds.length < 2 && <Empty>Choose two or more runs on the <Link to="/runs">runs page</Link> (tick them, then Compare).</Empty>}
      {compared.state === "error" && <ErrorNote error={compared.error} retry={compared.reload} />}
      {compared.state === "loading" && !compared.data && <Loading what="the runs and their orders" />}
      {missing.length > 0 && <Empty>Not among your runs: {missing.join(", ")}.</Empty>}
      {compared.data && compared.data.length > 0 && (
        <>
          <p class="note">
            {compared.data.map((c) => `${name(c.run)}: ${formatIST(c.run.startTime)} to ${formatIST(c.run.endTime)}`).join("; ")}.
          </p>
          <DataTable caption="Totals of each run" columns={columns} rows={METRICS} rowKey={(m) => m.key} testId="compare-table"
            csv={["compare-runs", ...route.runIds]} />
          <EquityCurve title="Equity curves" curves={compared.data.map((c) => ({ label: name(c.run), points: c.analysis.curve }))} />
          <details class="definitions" open>
            <summary>How these are counted</summary>
            <p>{HIT_RATE_DEFINITION}</p>
            <p>{PNL_DEFINITION}</p>
          </details>
        </>
      )}
    </section>
  );
}

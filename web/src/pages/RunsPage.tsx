import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { type Column, DataTable } from "../components/DataTable";
import { Link } from "../components/Link";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { useAsync } from "../hooks";
import { RefreshPicker, useAutoRefresh } from "../components/RefreshPicker";
import { type Route, formatRoute } from "../route";
import { navigate, updateRoute } from "../router";
import { type Run, analyseRun, deleteRun, inTurns, listRuns, listTags } from "../runs";
import { HIT_RATE_DEFINITION, PNL_DEFINITION, type RunStats } from "../runstats";
import { formatPercent, formatSignedPrice } from "../format";
import { formatIST } from "../time";
import { plural } from "../words";
import { RunEditDialog } from "./RunEditDialog";
import { RunForm } from "./RunForm";

type RunsRoute = Extract<Route, { page: "runs" }>;

/** Each run's totals, read a few runs at a time after the list shows; "error" when a run's orders could not be read. */
function useRunStats(runs: Run[] | undefined): Map<string, RunStats | "error"> {
  const [stats, setStats] = useState(new Map<string, RunStats | "error">());
  useEffect(() => {
    if (!runs) return;
    let stopped = false;
    const found = new Map<string, RunStats | "error">();
    setStats(new Map());
    void inTurns(runs.filter((r) => (r.orderCount ?? 0) > 0).map((r) => async () => {
      let result: RunStats | "error";
      try {
        result = (await analyseRun(r.id ?? "")).stats;
      } catch {
        result = "error";
      }
      if (stopped) return;
      found.set(r.id ?? "", result);
      setStats(new Map(found));
    }), 3);
    return () => {
      stopped = true;
    };
  }, [runs]);
  return stats;
}

export function RunsPage({ route }: { route: RunsRoute }): VNode {
  const runs = useAsync(() => listRuns(route.tag), [route.tag]);
  const tags = useAsync(listTags, []);
  const [editing, setEditing] = useState<Run | undefined>();
  const [deleting, setDeleting] = useState<Run | undefined>();
  const [chosen, setChosen] = useState<string[]>([]);
  const stats = useRunStats(runs.data);
  useAutoRefresh(route.refresh, runs.reload);
  const stat = (r: Run, pick: (s: RunStats) => number | undefined): number | undefined => {
    const s = stats.get(r.id ?? "");
    return s && s !== "error" ? pick(s) : undefined;
  };
  const pending = (r: Run) => ((r.orderCount ?? 0) === 0 ? "—" : stats.get(r.id ?? "") === "error" ? "?" : "…");
  const toggle = (id: string, on: boolean) => setChosen((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)));
  const refresh = () => {
    runs.reload();
    tags.reload();
  };
  const columns: Column<Run>[] = [
    {
      key: "compare", label: <span class="visually-hidden">Compare</span>, text: "Compare",
      render: (r) => (
        <input type="checkbox" checked={chosen.includes(r.id ?? "")} aria-label={`Compare ${r.name || `run ${r.id}`}`}
          onChange={(e) => toggle(r.id ?? "", e.currentTarget.checked)} />
      ),
    },
    {
      key: "name", label: "Name", value: (r) => r.name ?? "",
      render: (r) => <Link to={formatRoute({ page: "run", runId: r.id ?? "" })}>{r.name || `Run ${r.id}`}</Link>,
    },
    { key: "tags", label: "Tags", value: (r) => (r.tags ?? []).join(" "), render: (r) => <Tags tags={r.tags ?? []} /> },
    { key: "start", label: "Start (IST)", value: (r) => r.startTime, render: (r) => formatIST(r.startTime, { zone: false, seconds: false }), csv: (r) => formatIST(r.startTime, { zone: false }) },
    { key: "end", label: "End (IST)", value: (r) => r.endTime, render: (r) => formatIST(r.endTime, { zone: false, seconds: false }), csv: (r) => formatIST(r.endTime, { zone: false }) },
    { key: "orders", label: "Orders", value: (r) => r.orderCount ?? 0, numeric: true },
    {
      key: "hitRate", label: <abbr title={HIT_RATE_DEFINITION}>Hit rate</abbr>, text: "Hit rate %", numeric: true,
      value: (r) => stat(r, (s) => s.hitRate), render: (r) => {
        const v = stat(r, (s) => s.hitRate);
        return v === undefined ? (stats.has(r.id ?? "") ? "—" : pending(r)) : `${v.toFixed(1)}%`;
      },
    },
    {
      key: "pnl", label: <abbr title={PNL_DEFINITION}>P&amp;L per share</abbr>, text: "P&L per share", numeric: true,
      value: (r) => stat(r, (s) => s.pnlPerShare), render: (r) => (stats.has(r.id ?? "") && stats.get(r.id ?? "") !== "error" ? formatSignedPrice(stat(r, (s) => s.pnlPerShare)) : pending(r)),
    },
    {
      key: "avgReturn", label: <abbr title={PNL_DEFINITION}>Avg return</abbr>, text: "Avg return %", numeric: true,
      value: (r) => stat(r, (s) => s.avgReturnPercent), render: (r) => (stats.has(r.id ?? "") && stats.get(r.id ?? "") !== "error" ? formatPercent(stat(r, (s) => s.avgReturnPercent)) : pending(r)),
    },
    { key: "completed", label: "Completed", value: (r) => Boolean(r.completed), render: (r) => (r.completed ? "Yes" : "No") },
    { key: "created", label: "Created (IST)", value: (r) => r.createdTime, render: (r) => formatIST(r.createdTime, { zone: false, seconds: false }), csv: (r) => formatIST(r.createdTime, { zone: false }) },
    {
      key: "actions", label: "Actions",
      render: (r) => (
        <span class="row-actions">
          <button type="button" onClick={() => setEditing(r)} aria-label={`Edit run ${r.name || r.id}`}>Edit</button>
          <button type="button" class="danger" onClick={() => setDeleting(r)} aria-label={`Delete run ${r.name || r.id}`}>Delete</button>
        </span>
      ),
    },
  ];
  return (
    <section>
      <h1>Runs</h1>
      <RunForm onCreated={refresh} />
      <div class="toolbar">
        <div class="field inline">
          <label for="runs-tag">Filter by tag</label>
          <select id="runs-tag" value={route.tag ?? ""} onChange={(e) => updateRoute(route, { tag: e.currentTarget.value || undefined })}>
            <option value="">All runs</option>
            {(tags.data ?? []).concat(route.tag && !(tags.data ?? []).includes(route.tag) ? [route.tag] : []).map((t) => (
              <option key={t} value={t}>{t}</option>
            ))}
          </select>
        </div>
        <RefreshPicker id="runs-refresh" value={route.refresh} onChange={(refresh) => updateRoute(route, { refresh })} />
      </div>
      {runs.state === "error" && <ErrorNote error={runs.error} retry={runs.reload} />}
      {runs.state === "loading" && !runs.data && <Loading what="runs" />}
      {runs.data && runs.data.length === 0 && (
        <Empty>{route.tag ? `No run is tagged ${route.tag}.` : "No runs yet: create one above, or from a strategy through the API."}</Empty>
      )}
      {runs.data && runs.data.length > 1 && (
        <div class="toolbar compare-bar">
          <button type="button" class="primary" disabled={chosen.length < 2}
            onClick={() => navigate(formatRoute({ page: "compare", runIds: chosen }))}>
            Compare {chosen.length >= 2 ? plural(chosen.length, "run") : "runs"}
          </button>
          <span class="note">{chosen.length < 2 ? "Tick two or more runs to compare their totals and equity curves." : ""}</span>
        </div>
      )}
      {runs.data && runs.data.length > 0 && (
        <DataTable
          caption={`${plural(runs.data.length, "run")}${route.tag ? ` tagged ${route.tag}` : ""}, newest first`}
          csv={["runs", route.tag]}
          columns={columns}
          rows={runs.data}
          rowKey={(r) => r.id ?? ""}
          sort={route.sort}
          onSort={(sort) => updateRoute(route, { sort })}
          testId="runs-table"
        />
      )}
      {runs.data && runs.data.length > 0 && (
        <details class="definitions">
          <summary>How the totals are counted</summary>
          <p>{HIT_RATE_DEFINITION}</p>
          <p>{PNL_DEFINITION}</p>
        </details>
      )}
      {editing && <RunEditDialog run={editing} onSaved={refresh} onClose={() => setEditing(undefined)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete run ${deleting.name || deleting.id}?`}
          confirmLabel="Delete run"
          onConfirm={async () => {
            await deleteRun(deleting.id ?? "");
            refresh();
          }}
          onClose={() => setDeleting(undefined)}
        >
          <p>The run and its {plural(deleting.orderCount ?? 0, "order")} are deleted. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

export function Tags({ tags }: { tags: string[] }): VNode {
  return (
    <span class="tags">
      {tags.map((t) => (
        <Link key={t} class="tag" to={formatRoute({ page: "runs", tag: t })}>{t}</Link>
      ))}
    </span>
  );
}

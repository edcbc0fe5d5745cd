import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { Field } from "../components/Field";
import { Link } from "../components/Link";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { useAsync } from "../hooks";
import type { Route } from "../route";
import { navigate, updateRoute } from "../router";
import { type Run, analyseRun, deleteRun, getRun } from "../runs";
import { formatIST } from "../time";
import { plural } from "../words";
import { EquityCurve } from "../components/EquityCurve";
import { OrderForm } from "./OrderForm";
import { OrdersTable, RunTotals } from "./OrdersTable";
import { RunEditDialog } from "./RunEditDialog";
import { Tags } from "./RunsPage";

type RunRoute = Extract<Route, { page: "run" }>;

export function RunPage({ route }: { route: RunRoute }): VNode {
  const run = useAsync(() => getRun(route.runId), [route.runId]);
  const analysis = useAsync(() => analyseRun(route.runId, route.gain), [route.runId, route.gain]);
  const [gain, setGain] = useState(route.gain === undefined ? "" : String(route.gain));
  useEffect(() => setGain(route.gain === undefined ? "" : String(route.gain)), [route.gain]);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (run.state === "error") return <ErrorNote error={run.error} retry={run.reload} />;
  if (!run.data) {
    if (run.state === "loading") return <Loading what="the run" />;
    return (
      <section>
        <h1>Run {route.runId}</h1>
        <Empty>There is no run {route.runId} among yours. <Link to="/runs">Back to the runs</Link></Empty>
      </section>
    );
  }
  const r: Run = run.data;
  const applyGain = (e: Event) => {
    e.preventDefault();
    const n = gain.trim() === "" ? undefined : Number(gain);
    updateRoute(route, { gain: n !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined });
  };
  return (
    <section>
      <p class="crumbs"><Link to="/runs">Runs</Link> /</p>
      <h1>{r.name || `Run ${r.id}`}</h1>
      <div class="run-head">
        <dl class="facts">
          <div><dt>Id</dt><dd>{r.id}</dd></div>
          <div><dt>Start</dt><dd>{formatIST(r.startTime)}</dd></div>
          <div><dt>End</dt><dd>{formatIST(r.endTime)}</dd></div>
          <div><dt>Created</dt><dd>{formatIST(r.createdTime)}</dd></div>
          <div><dt>Completed</dt><dd>{r.completed ? "Yes" : "No"}</dd></div>
          <div><dt>Tags</dt><dd>{(r.tags ?? []).length ? <Tags tags={r.tags ?? []} /> : "—"}</dd></div>
        </dl>
        <div class="actions">
          <button type="button" onClick={() => setEditing(true)}>Edit</button>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>Delete</button>
        </div>
      </div>
      <form class="toolbar" onSubmit={applyGain}>
        <Field id="target-gain" label="Target gain %" className="inline" hint="Empty: each order's own take-profit price">
          {(input) => <input {...input} type="number" min="0" step="any" inputMode="decimal" value={gain} onInput={(e) => setGain(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Apply</button>
      </form>
      {analysis.state === "error" && <ErrorNote error={analysis.error} retry={analysis.reload} />}
      {analysis.state === "loading" && !analysis.data && <Loading what="orders and outcomes" />}
      {analysis.data && analysis.data.orders.length === 0 && <Empty>This run has no orders yet.</Empty>}
      {analysis.data && analysis.data.orders.length > 0 && (
        <>
          <RunTotals stats={analysis.data.stats} />
          {analysis.data.curve.length > 0 && (
            <EquityCurve title={`Equity curve of ${r.name || `run ${r.id}`}`} curves={[{ label: r.name || `Run ${r.id}`, points: analysis.data.curve }]} />
          )}
          <OrdersTable runId={route.runId} valued={analysis.data.valued} sort={route.sort} onSort={(sort) => updateRoute(route, { sort })} />
        </>
      )}
      <OrderForm
        runId={route.runId}
        onAdded={() => {
          analysis.reload();
          run.reload();
        }}
      />
      {editing && <RunEditDialog run={r} onSaved={() => run.reload()} onClose={() => setEditing(false)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete run ${r.name || r.id}?`}
          confirmLabel="Delete run"
          onConfirm={async () => {
            await deleteRun(r.id ?? "");
            navigate("/runs");
          }}
          onClose={() => setDeleting(false)}
        >
          <p>The run and its {plural(r.orderCount ?? 0, "order")} are deleted. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { type Column, DataTable } from "../components/DataTable";
import { Link } from "../components/Link";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { useAsync } from "../hooks";
import { type Route, formatRoute } from "../route";
import { updateRoute } from "../router";
import { type Run, deleteRun, listRuns, listTags } from "../runs";
import { formatIST } from "../time";
import { RunEditDialog } from "./RunEditDialog";
import { RunForm } from "./RunForm";

type RunsRoute = Extract<Route, { page: "runs" }>;

export function RunsPage({ route }: { route: RunsRoute }): VNode {
  const runs = useAsync(() => listRuns(route.tag), [route.tag]);
  const tags = useAsync(listTags, []);
  const [editing, setEditing] = useState<Run | undefined>();
  const [deleting, setDeleting] = useState<Run | undefined>();
  const refresh = () => {
    runs.reload();
    tags.reload();
  };
  const columns: Column<Run>[] = [
    { key: "id", label: "Id", value: (r) => Number(r.id), numeric: true },
    {
      key: "name", label: "Name", value: (r) => r.name ?? "",
      render: (r) => <Link to={formatRoute({ page: "run", runId: r.id ?? "" })}>{r.name || `Run ${r.id}`}</Link>,
    },
    { key: "tags", label: "Tags", value: (r) => (r.tags ?? []).join(" "), render: (r) => <Tags tags={r.tags ?? []} /> },
    { key: "start", label: "Start (IST)", value: (r) => r.startTime, render: (r) => formatIST(r.startTime, { zone: false }) },
    { key: "end", label: "End (IST)", value: (r) => r.endTime, render: (r) => formatIST(r.endTime, { zone: false }) },
    { key: "orders", label: "Orders", value: (r) => r.orderCount ?? 0, numeric: true },
    { key: "completed", label: "Completed", value: (r) => Boolean(r.completed), render: (r) => (r.completed ? "Yes" : "No") },
    { key: "created", label: "Created (IST)", value: (r) => r.createdTime, render: (r) => formatIST(r.createdTime, { zone: false }) },
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
      </div>
      {runs.state === "error" && <ErrorNote error={runs.error} retry={runs.reload} />}
      {runs.state === "loading" && !runs.data && <Loading what="runs" />}
      {runs.data && runs.data.length === 0 && (
        <Empty>{route.tag ? `No run is tagged ${route.tag}.` : "No runs yet: create one above, or from a strategy through the API."}</Empty>
      )}
      {runs.data && runs.data.length > 0 && (
        <DataTable
          caption={`${runs.data.length} run${runs.data.length === 1 ? "" : "s"}${route.tag ? ` tagged ${route.tag}` : ""}, newest first`}
          columns={columns}
          rows={runs.data}
          rowKey={(r) => r.id ?? ""}
          sort={route.sort}
          onSort={(sort) => updateRoute(route, { sort })}
          testId="runs-table"
        />
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
          <p>The run and its {deleting.orderCount ?? 0} orders are deleted. This cannot be undone.</p>
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

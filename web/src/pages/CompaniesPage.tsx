import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { type Column, DataTable } from "../components/DataTable";
import { Field } from "../components/Field";
import { Link } from "../components/Link";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { formErrors } from "../formerrors";
import { useAsync } from "../hooks";
import { type Route, SCOPES, SHORTLIST_TYPES, type ShortlistTypeName, formatRoute } from "../route";
import { updateRoute } from "../router";
import type { SortSpec } from "../sort";
import { IST_LABEL } from "../time";
import { plural } from "../words";

type CompaniesRoute = Extract<Route, { page: "companies" }>;
type Company = Schemas["PersistentCompany"];

const TYPE_LABELS: Record<ShortlistTypeName, string> = { TOP_GAINERS: "Top gainers", VOLUME_SHOCKERS: "Volume shockers" };

/** The companies that stayed in a shortlist all day, and every company that appeared, for one date. */
export function CompaniesPage({ route }: { route: CompaniesRoute }): VNode {
  const [min, setMin] = useState(route.min === undefined ? "" : String(route.min));
  useEffect(() => setMin(route.min === undefined ? "" : String(route.min)), [route.min]);
  const [sort, setSort] = useState<SortSpec | undefined>(undefined);

  const dates = useAsync(async () => (await api().call("GET", "/v1/dashboard/available-datetimes")).dates ?? [], []);
  const date = route.date ?? dates.data?.at(-1)?.date;
  const types = route.type ? [route.type] : [...SHORTLIST_TYPES];
  const persistent = useAsync(async () => {
    if (!date) return [];
    return Promise.all(types.map((type) => api().call("GET", "/v1/dashboard/daily-persistent-companies", {
      params: { query: { date, type, scope: route.scope, ...(route.min !== undefined ? { minPercentage: route.min } : {}) } },
    })));
  }, [date, route.type, route.scope, route.min]);
  const unique = useAsync(async () => {
    if (!date) return undefined;
    return api().call("GET", "/v1/dashboard/daily-unique-companies", {
      params: { query: { date, scope: route.scope, ...(route.type ? { type: route.type } : {}) } },
    });
  }, [date, route.type, route.scope]);

  const minError = persistent.state === "error" ? formErrors(persistent.error, ["minPercentage"]).fields["minPercentage"] : undefined;
  const columns: Column<Company>[] = [
    {
      key: "symbol", label: "Symbol", value: (c) => c.nseSymbol,
      render: (c) => <Link to={formatRoute({ page: "chart", symbol: c.nseSymbol, date, interval: "5minute" })}>{c.nseSymbol}</Link>,
    },
    { key: "name", label: "Name", value: (c) => c.name },
    { key: "count", label: "Snapshots", value: (c) => c.count, numeric: true },
    { key: "percentage", label: "Share", value: (c) => c.percentage, render: (c) => `${(c.percentage ?? 0).toFixed(1)}%`, numeric: true },
  ];
  return (
    <section>
      <h1>Companies of the day</h1>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          updateRoute(route, { min: min.trim() === "" ? undefined : Number(min) });
        }}
      >
        <Field id="co-date" label={`Date (${IST_LABEL})`} className="inline">
          {(input) => (
            <select {...input} value={date ?? ""} disabled={!dates.data?.length} onChange={(e) => updateRoute(route, { date: e.currentTarget.value })}>
              {!dates.data?.length && <option value="">{dates.state === "loading" ? "Loading…" : "No dates"}</option>}
              {(dates.data ?? []).map((d) => <option key={d.date} value={d.date}>{d.date}</option>)}
            </select>
          )}
        </Field>
        <Field id="co-type" label="List" className="inline">
          {(input) => (
            <select {...input} value={route.type ?? ""} onChange={(e) => updateRoute(route, { type: (e.currentTarget.value || undefined) as ShortlistTypeName | undefined })}>
              <option value="">All lists</option>
              {SHORTLIST_TYPES.map((t) => <option key={t} value={t}>{TYPE_LABELS[t]}</option>)}
            </select>
          )}
        </Field>
        <Field id="co-scope" label="Scope" className="inline">
          {(input) => (
            <select {...input} value={route.scope} onChange={(e) => updateRoute(route, { scope: e.currentTarget.value as CompaniesRoute["scope"] })}>
              {SCOPES.map((s) => <option key={s} value={s}>{s === "TOP_5" ? "Top 5" : "Full"}</option>)}
            </select>
          )}
        </Field>
        <Field id="co-min" label="Persistent at %" className="inline" hint="Default 80" error={minError}>
          {(input) => <input {...input} type="number" min="0" max="100" step="any" value={min} onInput={(e) => setMin(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="primary">Apply</button>
      </form>
      {dates.state === "error" && <ErrorNote error={dates.error} retry={dates.reload} />}
      {dates.state === "ready" && dates.data.length === 0 && <Empty>No shortlist has been stored yet.</Empty>}
      {date && (
        <div class="columns">
          <div>
            <h2>Persistent companies</h2>
            {persistent.state === "error" && !minError && <ErrorNote error={persistent.error} retry={persistent.reload} />}
            {persistent.state === "loading" && <Loading what="persistent companies" />}
            {persistent.state === "ready" && persistent.data.map((p, i) => (
              <div key={types[i]}>
                {(p.companies ?? []).length === 0 ? (
                  <Empty>{TYPE_LABELS[types[i]!]}: none of {plural(p.totalSnapshots ?? 0, "snapshot")} had a company {route.min ?? 80}% of the time.</Empty>
                ) : (
                  <DataTable
                    caption={`${TYPE_LABELS[types[i]!]}: in at least ${route.min ?? 80}% of ${plural(p.totalSnapshots ?? 0, "snapshot")}`}
                    columns={columns}
                    rows={p.companies ?? []}
                    rowKey={(c) => c.nseSymbol}
                    sort={sort}
                    onSort={setSort}
                    testId={`persistent-${types[i]}`}
                  />
                )}
              </div>
            ))}
          </div>
          <div>
            <h2>Unique companies</h2>
            {unique.state === "error" && <ErrorNote error={unique.error} retry={unique.reload} />}
            {unique.state === "loading" && <Loading what="unique companies" />}
            {unique.state === "ready" && unique.data && (
              unique.data.symbols?.length ? (
                <>
                  <p>{plural(unique.data.uniqueCount ?? 0, "company", "companies")} appeared in {route.type ? TYPE_LABELS[route.type].toLowerCase() : "any list"} on {date}:</p>
                  <ul class="symbols" data-testid="unique-companies">
                    {unique.data.symbols.map((s) => (
                      <li key={s}><Link to={formatRoute({ page: "chart", symbol: s, date, interval: "5minute" })}>{s}</Link></li>
                    ))}
                  </ul>
                </>
              ) : (
                <Empty>No company appeared on {date}.</Empty>
              )
            )}
          </div>
        </div>
      )}
    </section>
  );
}

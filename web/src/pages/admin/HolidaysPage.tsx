import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { api } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { type Column, DataTable } from "../../components/DataTable";
import { DateInput, Field, FormMessage } from "../../components/Field";
import { Empty, ErrorNote, Loading } from "../../components/Status";
import { type FormErrors, NO_ERRORS, formErrors } from "../../formerrors";
import { useAsync } from "../../hooks";
import type { Route } from "../../route";
import { updateRoute } from "../../router";
import type { SortSpec } from "../../sort";
import { checkDate, todayIST } from "../../time";
import { plural } from "../../words";

type Holiday = Schemas["Holiday"];
type HolidaysRoute = Extract<Route, { page: "admin-holidays" }>;

export function HolidaysPage({ route }: { route: HolidaysRoute }): VNode {
  const thisYear = Number(todayIST().slice(0, 4));
  const year = route.year ?? thisYear;
  const holidays = useAsync(async () => (await api().call("GET", "/v1/admin/holidays", { params: { query: { year } } })).holidays ?? [], [year]);
  const [form, setForm] = useState({ date: "", name: "", sessionOpen: "", sessionClose: "" });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [deleting, setDeleting] = useState<Holiday | undefined>();
  const [sort, setSort] = useState<SortSpec | undefined>(undefined);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });

  const add = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    // Dates and times as text (ISO, 24-hour), checked here with words for people.
    const day = checkDate(form.date);
    const clock = (t: string) =>
      t === "" || /^([01]\d|2[0-3]):[0-5]\d$/.test(t.trim()) ? undefined : `“${t}” is not a time of day: write HH:MM, 24-hour (18:00).`;
    const found: Record<string, string> = {};
    if (!day.ok) found["date"] = day.error;
    if (clock(form.sessionOpen)) found["sessionOpen"] = clock(form.sessionOpen)!;
    if (clock(form.sessionClose)) found["sessionClose"] = clock(form.sessionClose)!;
    if (!day.ok || Object.keys(found).length) {
      setErrors({ fields: found });
      setBusy(false);
      return;
    }
    setErrors(NO_ERRORS);
    try {
      const holiday: Holiday = {
        date: day.value, name: form.name.trim(),
        ...(form.sessionOpen ? { sessionOpen: form.sessionOpen } : {}),
        ...(form.sessionClose ? { sessionClose: form.sessionClose } : {}),
      };
      await api().call("POST", "/v1/admin/holidays", { body: { holidays: [holiday] } });
      setForm({ date: "", name: "", sessionOpen: "", sessionClose: "" });
      if (day.value.slice(0, 4) !== String(year)) updateRoute(route, { year: Number(day.value.slice(0, 4)) });
      else holidays.reload();
    } catch (error) {
      setErrors(formErrors(error, ["date", "name", "sessionOpen", "sessionClose", "holidays", "dates"]));
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<Holiday>[] = [
    { key: "date", label: "Date", value: (h) => h.date },
    { key: "name", label: "Name", value: (h) => h.name },
    {
      key: "session", label: "Special session (IST)", value: (h) => h.sessionOpen,
      render: (h) => (h.sessionOpen && h.sessionClose ? `${h.sessionOpen}–${h.sessionClose}` : "—"),
    },
    {
      key: "actions", label: "Actions",
      render: (h) => <button type="button" class="danger" onClick={() => setDeleting(h)} aria-label={`Delete holiday ${h.date}`}>Delete</button>,
    },
  ];
  return (
    <section>
      <h1>Holidays</h1>
      <div class="toolbar">
        <button type="button" onClick={() => updateRoute(route, { year: year - 1 })} aria-label={`Year ${year - 1}`}>◀ {year - 1}</button>
        <h2 class="year" aria-live="polite">{year}</h2>
        <button type="button" onClick={() => updateRoute(route, { year: year + 1 })} aria-label={`Year ${year + 1}`}>{year + 1} ▶</button>
      </div>
      <form class="card form-grid" onSubmit={add} aria-labelledby="new-holiday-title" data-testid="holiday-form">
        <h2 id="new-holiday-title">Add to the calendar</h2>
        <Field id="hol-date" label="Date" error={errors.fields["date"] ?? errors.fields["holidays"] ?? errors.fields["dates"]}>
          {(input) => <DateInput {...input} value={form.date} onValue={(date) => setForm({ ...form, date })} />}
        </Field>
        <Field id="hol-name" label="Name" error={errors.fields["name"]}>
          {(input) => <input {...input} value={form.name} maxLength={100} onInput={set("name")} />}
        </Field>
        <Field id="hol-open" label="Session opens (IST)" hint="Only for a special session, e.g. Muhurat trading" error={errors.fields["sessionOpen"]}>
          {(input) => <input {...input} inputMode="numeric" placeholder="HH:MM" autoComplete="off" value={form.sessionOpen} onInput={set("sessionOpen")} />}
        </Field>
        <Field id="hol-close" label="Session closes (IST)" error={errors.fields["sessionClose"]}>
          {(input) => <input {...input} inputMode="numeric" placeholder="HH:MM" autoComplete="off" value={form.sessionClose} onInput={set("sessionClose")} />}
        </Field>
        <FormMessage message={errors.message} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>{busy ? "Adding…" : "Add"}</button>
        </div>
      </form>
      {holidays.state === "error" && <ErrorNote error={holidays.error} retry={holidays.reload} />}
      {holidays.state === "loading" && !holidays.data && <Loading what="holidays" />}
      {holidays.data?.length === 0 && <Empty>No holidays in {year}.</Empty>}
      {holidays.data && holidays.data.length > 0 && (
        <DataTable caption={`${plural(holidays.data.length, "entry", "entries")} in ${year}`} columns={columns} rows={holidays.data} rowKey={(h) => h.date ?? ""} sort={sort} onSort={setSort} testId="holidays-table" />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.date} (${deleting.name || "holiday"})?`}
          confirmLabel="Delete"
          onConfirm={async () => {
            await api().call("DELETE", "/v1/admin/holidays/{date}", { params: { path: { date: deleting.date ?? "" } } });
            holidays.reload();
          }}
          onClose={() => setDeleting(undefined)}
        >
          <p>The date becomes a normal day of the calendar again.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

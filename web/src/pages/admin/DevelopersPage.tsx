import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { api, collect, currentUser } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { CopyButton } from "../../components/CopyButton";
import { type Column, DataTable } from "../../components/DataTable";
import { Field, FormMessage } from "../../components/Field";
import { Empty, ErrorNote, Loading } from "../../components/Status";
import { type FormErrors, NO_ERRORS, formErrors } from "../../formerrors";
import { useAsync } from "../../hooks";
import type { SortSpec } from "../../sort";
import { formatIST } from "../../time";
import { plural } from "../../words";

type Developer = Schemas["Developer"];

function listDevelopers(): Promise<Developer[]> {
  return collect(api().paginate("/v1/admin/developers", { params: { query: { pageSize: 1000 } } }, "developers"));
}

/** A token as the API answered it once: shown until dismissed, never again. */
function NewToken({ developer, onDismiss }: { developer: Developer; onDismiss: () => void }): VNode {
  return (
    <div class="card token-once" role="region" aria-labelledby="token-title" data-testid="new-token">
      <h2 id="token-title">Token of {developer.username}</h2>
      <p>This is the only time the token is shown: mdc keeps only its hash. Copy it now and hand it over safely.</p>
      <p class="token-line">
        <label for="token-value" class="visually-hidden">Token</label>
        <input id="token-value" class="token" readOnly value={developer.token ?? ""} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={developer.token ?? ""} />
      </p>
      <button type="button" onClick={onDismiss}>Done, hide the token</button>
    </div>
  );
}

export function DevelopersPage(): VNode {
  const developers = useAsync(listDevelopers, []);
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<"developer" | "admin">("developer");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [issued, setIssued] = useState<Developer | undefined>();
  const [refreshing, setRefreshing] = useState<Developer | undefined>();
  const [deleting, setDeleting] = useState<Developer | undefined>();
  const [sort, setSort] = useState<SortSpec | undefined>(undefined);
  const me = currentUser();

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      setIssued(await api().call("POST", "/v1/admin/developers", { body: { username: username.trim(), role } }));
      setUsername("");
      developers.reload();
    } catch (error) {
      setErrors(formErrors(error, ["username", "role"]));
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<Developer>[] = [
    { key: "id", label: "Id", value: (d) => Number(d.id), numeric: true },
    { key: "username", label: "Username", value: (d) => d.username, render: (d) => <>{d.username}{d.id === me?.id && <span class="role"> you</span>}</> },
    { key: "role", label: "Role", value: (d) => d.role },
    { key: "created", label: "Created (IST)", value: (d) => d.createdTime, render: (d) => formatIST(d.createdTime, { zone: false }) },
    { key: "seen", label: "Last seen (IST)", value: (d) => d.lastSeenTime, render: (d) => formatIST(d.lastSeenTime, { zone: false }) },
    {
      key: "actions", label: "Actions",
      render: (d) => (
        <span class="row-actions">
          <button type="button" onClick={() => setRefreshing(d)} aria-label={`Refresh the key of ${d.username}`}>Refresh key</button>
          <button type="button" class="danger" onClick={() => setDeleting(d)} aria-label={`Delete ${d.username}`}>Delete</button>
        </span>
      ),
    },
  ];
  return (
    <section>
      <h1>Developers</h1>
      {issued && <NewToken developer={issued} onDismiss={() => setIssued(undefined)} />}
      <form class="card form-grid" onSubmit={create} aria-labelledby="new-dev-title" data-testid="developer-form">
        <h2 id="new-dev-title">New developer</h2>
        <Field id="dev-username" label="Username" hint="1-64 of A-Z a-z 0-9 _ . -" error={errors.fields["username"]}>
          {(input) => <input {...input} value={username} autoComplete="off" spellcheck={false} onInput={(e) => setUsername(e.currentTarget.value)} />}
        </Field>
        <Field id="dev-role" label="Role" error={errors.fields["role"]}>
          {(input) => (
            <select {...input} value={role} onChange={(e) => setRole(e.currentTarget.value as "developer" | "admin")}>
              <option value="developer">developer</option>
              <option value="admin">admin</option>
            </select>
          )}
        </Field>
        <FormMessage message={errors.message} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>{busy ? "Creating…" : "Create developer"}</button>
        </div>
      </form>
      {developers.state === "error" && <ErrorNote error={developers.error} retry={developers.reload} />}
      {developers.state === "loading" && !developers.data && <Loading what="developers" />}
      {developers.data?.length === 0 && <Empty>No developers.</Empty>}
      {developers.data && developers.data.length > 0 && (
        <DataTable
          caption={plural(developers.data.length, "developer")}
          columns={columns}
          rows={developers.data}
          rowKey={(d) => d.id ?? ""}
          sort={sort}
          onSort={setSort}
          testId="developers-table"
        />
      )}
      {refreshing && (
        <ConfirmDialog
          title={`Refresh the key of ${refreshing.username}?`}
          confirmLabel="Refresh key"
          onConfirm={async () => {
            const id = refreshing.id ?? "";
            setIssued(await api().call("PATCH", "/v1/admin/developers/{id}/refresh-key", { params: { path: { id } } }));
            developers.reload();
          }}
          onClose={() => setRefreshing(undefined)}
        >
          <p>A new token is issued and shown once; the current one stops working at once{refreshing.id === me?.id ? ", including the one this tab signed in with" : ""}.</p>
        </ConfirmDialog>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.username}?`}
          confirmLabel="Delete developer"
          typed={deleting.username}
          onConfirm={async () => {
            const id = deleting.id ?? "";
            await api().call("DELETE", "/v1/admin/developers/{id}", { params: { path: { id } } });
            developers.reload();
          }}
          onClose={() => setDeleting(undefined)}
        >
          <p>Its token stops working, and its runs and orders are deleted with it. Market data it wrote stays.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

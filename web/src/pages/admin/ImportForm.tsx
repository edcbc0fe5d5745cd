import { type ImportKind, type ImportResult, MdcError } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { api } from "../../api";
import { errorText } from "../../formerrors";
import { plural } from "../../words";

type Format = "parquet" | "csv" | "ndjson";
const FORMATS: Format[] = ["parquet", "csv", "ndjson"];
const KINDS: ImportKind[] = ["quotes", "nifty", "shortlists"];

/** What an export's file name says (quotes_2035-03-06_2035-03-07.parquet): its kind and format. */
function guess(name: string): { kind?: ImportKind; format?: Format } {
  const kind = KINDS.find((k) => name.startsWith(`${k}_`));
  const format = FORMATS.find((f) => name.toLowerCase().endsWith(`.${f}`));
  return { kind, format };
}

/** Uploads a file an export wrote (docs/api.md section 12): stored whole once the server has it, or not at
 * all; the browser streams the File, nothing is read into the page. */
export function ImportForm({ onImported }: { onImported: () => void }): VNode {
  const [file, setFile] = useState<File | undefined>();
  const [kind, setKind] = useState<ImportKind>("quotes");
  const [format, setFormat] = useState<Format>("parquet");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | undefined>();
  const [error, setError] = useState<unknown>();

  const pick = (picked: File | undefined) => {
    setFile(picked);
    setResult(undefined);
    setError(undefined);
    const guessed = guess(picked?.name ?? "");
    if (guessed.kind) setKind(guessed.kind);
    if (guessed.format) setFormat(guessed.format);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setResult(undefined);
    setError(undefined);
    try {
      setResult(await api().import(kind, file, { format }));
      onImported();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="toolbar" onSubmit={submit} aria-label="Import a file">
      <label>
        File (an export's CSV, Parquet or NDJSON)
        <input type="file" accept=".csv,.parquet,.ndjson" onChange={(e) => pick(e.currentTarget.files?.[0])} />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value as ImportKind)}>
          {KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
        </select>
      </label>
      <label>
        Format
        <select value={format} onChange={(e) => setFormat(e.currentTarget.value as Format)}>
          {FORMATS.map((f) => <option key={f} value={f}>{f}</option>)}
        </select>
      </label>
      <button type="submit" disabled={!file || busy}>{busy ? "Importing…" : "Import"}</button>
      {result && (
        <p class="note" role="status" data-testid="import-result">
          Imported {plural(result.records, "record")}: {result.written} written, {result.unchanged} unchanged.
        </p>
      )}
      {error !== undefined && (
        // The server's words as they are: they name the file's line or row and its columns, which the
        // dashboard's humanized field names would rename.
        <div class="status error" role="alert">
          <p>{error instanceof MdcError && error.code === "INVALID_ARGUMENT" ? error.message : errorText(error)}</p>
        </div>
      )}
    </form>
  );
}

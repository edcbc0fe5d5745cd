/// <reference types="node" />
/**
 * Node-only helpers, a subpath of their own (`@mdc/client/node`) outside src/, so that the main entry and
 * everything under src/ stay loadable in a browser (test/browser.test.ts) and no bundle reaches for node:fs.
 */
import { createWriteStream, openAsBlob } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { basename, extname } from "node:path";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

import type { MdcClient } from "../src/client.js";
import { invalidArgument } from "../src/checks.js";
import { MdcError } from "../src/errors.js";
import type { ExportFormat, ExportKind, ExportOptions, ImportKind, ImportResult } from "../src/types.js";

/**
 * Downloads an export (docs/api.md section 11, `client.export`'s arguments) into the file `path` and
 * resolves to it once the file is whole. The bytes go to `<path>.part` first and are renamed to `path`
 * only after the answer's last byte: a download that is cut (the gateway breaks the answer off when
 * the server fails mid-export: a reset connection or HTTP/2 stream, no last chunk) deletes the part file
 * and rejects with MdcError (code UNAVAILABLE), so no partial file ever lies under `path`. fetch does
 * not expose the `Mdc-Export-Rows` trailer; the answer's framing, which fetch checks, is the test.
 * An export refused before it began rejects with its MdcError as `export` does.
 */
export async function downloadExport(
  client: MdcClient,
  kind: ExportKind,
  start: Date,
  path: string,
  opts: ExportOptions = {},
): Promise<string> {
  const body = await client.export(kind, start, opts);
  const part = `${path}.part`;
  try {
    await pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), createWriteStream(part));
  } catch (cause) {
    await rm(part, { force: true });
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    throw new MdcError(`export ${kind}: the download was cut before its end (${detail}); ask again`, {
      httpStatus: 200,
      code: "UNAVAILABLE",
      cause,
    });
  }
  await rename(part, path);
  return path;
}

/**
 * Imports the file at `path`, a file an export wrote (docs/api.md section 12; an admin's client), streamed
 * from disk: `client.import` with the file. `opts.kind` and `opts.format` default to what the export's file
 * name says (`quotes_2035-03-06_2035-03-07.parquet`). Resolves once the file is committed, whole; a bad file
 * rejects with MdcError (INVALID_ARGUMENT) naming its line or row, and nothing was stored.
 */
export async function importFile(
  client: MdcClient,
  path: string,
  opts: { kind?: ImportKind; format?: ExportFormat } = {},
): Promise<ImportResult> {
  const name = basename(path);
  const kind = opts.kind ?? (name.split("_", 1)[0] as ImportKind);
  if (!IMPORT_KINDS.includes(kind)) {
    throw invalidArgument("kind", `is not in the file's name ${JSON.stringify(name)}: give kind (${IMPORT_KINDS.join(", ")})`);
  }
  const format = opts.format ?? (extname(name).slice(1).toLowerCase() as ExportFormat);
  if (!IMPORT_FORMATS.includes(format)) {
    throw invalidArgument("format", `is not the file's extension ${JSON.stringify(extname(name))}: give format (${IMPORT_FORMATS.join(", ")})`);
  }
  return client.import(kind, await openAsBlob(path), { format });
}

const IMPORT_KINDS: ImportKind[] = ["quotes", "nifty", "shortlists"];
const IMPORT_FORMATS: ExportFormat[] = ["parquet", "csv", "ndjson"];

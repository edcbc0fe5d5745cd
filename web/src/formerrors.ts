/**
 * Server errors placed next to the fields they name. A 400 carries a
 * google.rpc.BadRequest listing each bad field by its JSON name
 * ("start_datetime", "tags[2]", "args.before", "entryPrice"); the form shows
 * each under its own input and the rest (or the message, when no field is
 * named) above the form.
 */
import { MdcError } from "@mdc/client";

export interface FormErrors {
  /** By form field name: what is wrong with it. */
  fields: Record<string, string>;
  /** What belongs to no field of the form. */
  message?: string | undefined;
}

export const NO_ERRORS: FormErrors = { fields: {} };

/** snake_case and lowerCamelCase spellings of one name compare equal. */
function norm(name: string): string {
  return name.replace(/_/g, "").toLowerCase();
}

/** The form field a violation's field path belongs to, if any. */
export function fieldFor(path: string, formFields: readonly string[]): string | undefined {
  const candidates = [
    path,
    path.replace(/\[\d+\]/g, ""), // tags[2] -> tags, dates[0] -> dates
    path.split(".").pop() ?? path, // args.before -> before, data.timestamp -> timestamp
    (path.split(".").pop() ?? path).replace(/\[\d+\]/g, ""),
  ];
  for (const c of candidates) {
    const hit = formFields.find((f) => norm(f) === norm(c));
    if (hit) return hit;
  }
  return undefined;
}

export function formErrors(error: unknown, formFields: readonly string[]): FormErrors {
  if (!(error instanceof MdcError)) {
    return { fields: {}, message: error instanceof Error ? error.message : String(error) };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const v of error.fieldViolations) {
    const field = fieldFor(v.field, formFields);
    if (field) {
      fields[field] = fields[field] ? `${fields[field]}; ${v.description}` : v.description;
    } else {
      rest.push(v.field ? `${v.field}: ${v.description}` : v.description);
    }
  }
  if (error.fieldViolations.length === 0) return { fields, message: error.message };
  return { fields, message: rest.length ? rest.join("; ") : undefined };
}

/** A short text for an error shown on its own (loading a page, a delete). */
export function errorText(error: unknown): string {
  if (error instanceof MdcError) {
    const fields = error.fieldViolations.map((v) => `${v.field}: ${v.description}`);
    return fields.length ? fields.join("; ") : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

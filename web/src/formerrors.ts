/**
 * Server errors for people, placed next to the fields they name. A 400
 * carries a google.rpc.BadRequest listing each bad field by its JSON name
 * ("start_datetime", "tags[2]", "args.before", "entryPrice"); the form shows
 * each under its own input and the rest (or the message, when no field is
 * named) above the form. Every text goes through words.ts: labels instead
 * of field names, IST instead of UTC, and for failures without an answer
 * what happened and what to do instead of the browser's own words.
 */
import { MdcError } from "@mdc/client";
import { fieldLabel, humanize, norm, plural, sentence } from "./words";

export interface FormErrors {
  /** By form field name: what is wrong with it. */
  fields: Record<string, string>;
  /** What belongs to no field of the form. */
  message?: string | undefined;
}

export const NO_ERRORS: FormErrors = { fields: {} };

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

/** What a failure without a usable message from the server means for the person. */
function plainFailure(error: MdcError): string | undefined {
  if (error.httpStatus === undefined) {
    return error.code === "DEADLINE_EXCEEDED"
      ? "The mdc server took too long to answer. Try again in a moment."
      : "Could not reach the mdc server. Check the network connection, then try again.";
  }
  if (error.httpStatus === 401) return "Your session has ended: the token was refreshed or revoked. Sign in again.";
  if (error.httpStatus === 429 && error.retryAfter !== undefined) {
    return `Too many requests at once. Wait ${plural(Math.ceil(error.retryAfter), "second")}, then try again.`;
  }
  if (error.httpStatus === 503) return "The mdc service is unavailable for a moment (its database may be restarting). Try again shortly.";
  if (error.httpStatus >= 500) return "Something went wrong on the mdc server. Try again; if it keeps happening, tell the operator.";
  return undefined;
}

function violationText(field: string, description: string): string {
  return sentence(field ? `${fieldLabel(field)} ${humanize(description)}` : humanize(description));
}

export function formErrors(error: unknown, formFields: readonly string[]): FormErrors {
  if (!(error instanceof MdcError)) return { fields: {}, message: errorText(error) };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const v of error.fieldViolations) {
    const field = fieldFor(v.field, formFields);
    if (field) {
      // Under its own input, whose label already names the field.
      const text = sentence(humanize(v.description));
      fields[field] = fields[field] ? `${fields[field]} ${text}` : text;
    } else {
      rest.push(violationText(v.field, v.description));
    }
  }
  if (error.fieldViolations.length === 0) return { fields, message: errorText(error) };
  return { fields, message: rest.length ? rest.join(" ") : undefined };
}

/** A text for an error shown on its own (loading a page, a delete): whole sentences for people. */
export function errorText(error: unknown): string {
  if (error instanceof MdcError) {
    const plain = plainFailure(error);
    if (plain) return plain;
    const fields = error.fieldViolations.map((v) => violationText(v.field, v.description));
    return fields.length ? fields.join(" ") : sentence(humanize(error.message));
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return "Could not reach the mdc server. Check the network connection, then try again.";
  }
  return sentence(humanize(error instanceof Error ? error.message : String(error)));
}

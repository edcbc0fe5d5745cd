import type { ComponentChildren, VNode } from "preact";

/** What a Field gives its input: its id and the accessibility links to label and error. */
export interface FieldInputProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A labelled input with its hint and the server's error for it underneath
 * (announced to screen readers when it appears).
 */
export function Field(props: {
  id: string;
  label: ComponentChildren;
  error?: string | undefined;
  hint?: ComponentChildren;
  className?: string;
  children: (input: FieldInputProps) => VNode;
}): VNode {
  const { id, label, error, hint } = props;
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={`field ${props.className ?? ""} ${error ? "field-invalid" : ""}`}>
      <label for={id}>{label}</label>
      {props.children({ id, ...(error ? { "aria-invalid": true as const } : {}), ...(described ? { "aria-describedby": described } : {}) })}
      {hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  );
}

/** What went wrong that belongs to no field of a form. */
export function FormMessage({ message }: { message?: string | undefined }): VNode | null {
  return message ? <p class="form-error" role="alert">{message}</p> : null;
}

/**
 * A date and time typed as text, "YYYY-MM-DD HH:MM" in IST: the browser's
 * date-time input would show its own locale's order (01/02/2025 reads as
 * 1 February in India) and cuts its text on narrow screens.
 */
export function WallClockInput(props: FieldInputProps & { value: string; onValue: (value: string) => void }): VNode {
  const { value, onValue, ...input } = props;
  return (
    <input {...input} type="text" inputMode="numeric" autoComplete="off" spellcheck={false} placeholder="2025-01-02 10:30"
      value={value} onInput={(e) => onValue(e.currentTarget.value)} />
  );
}

/** A trading date typed as text, "YYYY-MM-DD", whatever the browser's locale; `list` offers dates with data. */
export function DateInput(props: FieldInputProps & { value: string; onValue: (value: string) => void; list?: string }): VNode {
  const { value, onValue, ...input } = props;
  return (
    <input {...input} type="text" inputMode="numeric" autoComplete="off" spellcheck={false} placeholder="YYYY-MM-DD" size={11}
      value={value} onInput={(e) => onValue(e.currentTarget.value)} />
  );
}

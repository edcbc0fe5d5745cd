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

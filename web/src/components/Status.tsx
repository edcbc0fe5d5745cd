import type { ComponentChildren, VNode } from "preact";
import { errorText } from "../formerrors";

export function Loading({ what }: { what: string }): VNode {
  return <p class="status loading" role="status" aria-live="polite">Loading {what}…</p>;
}

export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }): VNode {
  return (
    <div class="status error" role="alert">
      <p>{errorText(error)}</p>
      {retry && <button type="button" onClick={retry}>Try again</button>}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }): VNode {
  return <p class="status empty">{children}</p>;
}

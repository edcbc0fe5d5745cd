import type { VNode } from "preact";
import { useState } from "preact/hooks";

/** Copies text to the clipboard and says so (aria-live), or says it could not. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }): VNode {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid("Copied");
    } catch {
      setSaid("Copy failed: select the text and copy it by hand");
    }
  };
  return (
    <span class="copy">
      <button type="button" onClick={copy}>{label}</button>
      <span class="copy-said" role="status" aria-live="polite">{said}</span>
    </span>
  );
}

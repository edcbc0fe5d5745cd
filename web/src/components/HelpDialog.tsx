import type { VNode } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { SHORTCUTS } from "../keys";

/** The keyboard shortcuts (the `?` key), in the browser's modal <dialog>. */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }): VNode {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="dialog help" aria-labelledby="help-title" onClose={onClose} data-testid="help">
      <h2 id="help-title">Keyboard shortcuts</h2>
      <table class="shortcuts">
        <thead><tr><th scope="col">Keys</th><th scope="col">What</th><th scope="col">Where</th></tr></thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}><td><kbd>{s.keys}</kbd></td><td>{s.what}</td><td>{s.where}</td></tr>
          ))}
        </tbody>
      </table>
      <p class="note">Keys typed into a field are the field's. The theme follows the system unless chosen in the header.</p>
      <div class="actions"><button type="button" class="primary" onClick={onClose}>Close</button></div>
    </dialog>
  );
}

import type { VNode } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { REFRESH_SECONDS } from "../route";

const LABELS: Record<number, string> = { 0: "Off", 5: "Every 5 s", 10: "Every 10 s", 30: "Every 30 s", 60: "Every minute" };

/** Calls `reload` every `seconds` (none when 0 or undefined) while the page is shown and the tab is visible. */
export function useAutoRefresh(seconds: number | undefined, reload: () => void): void {
  const current = useRef(reload);
  current.current = reload;
  useEffect(() => {
    if (!seconds) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "hidden") current.current();
    }, seconds * 1000);
    return () => window.clearInterval(timer);
  }, [seconds]);
}

/** The refresh picker (Grafana's): how often the page reads its data again by itself; the choice goes in the URL. */
export function RefreshPicker({ id, value, onChange }: { id: string; value: number | undefined; onChange: (seconds: number | undefined) => void }): VNode {
  return (
    <div class="field inline refresh-field">
      <label for={id}>Refresh</label>
      <select id={id} value={String(value ?? 0)} onChange={(e) => onChange(Number(e.currentTarget.value) || undefined)} data-testid="refresh-picker">
        {REFRESH_SECONDS.map((s) => <option key={s} value={String(s)}>{LABELS[s]}</option>)}
      </select>
    </div>
  );
}

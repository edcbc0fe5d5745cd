import type { VNode } from "preact";
import { errorText } from "../formerrors";
import type { LiveState } from "../live";
import { formatIST } from "../time";

/**
 * The switch of a page's live mode, and what the watch is doing: connecting,
 * following (with the time of the last update), or why it stopped.
 */
export function LiveToggle(props: { on: boolean; state: LiveState; onChange: (on: boolean) => void; what: string }): VNode {
  const { on, state } = props;
  const said =
    !on ? `Off: the page shows what was stored when it loaded.`
    : state.status === "connecting" ? "Connecting…"
    : state.status === "live" ? `Following ${props.what}${state.lastEvent ? `; last update ${formatIST(state.lastEvent)}` : ""}.`
    : state.status === "failed" ? `Stopped: ${errorText(state.error)}`
    : "";
  return (
    <div class="field inline live-field">
      <span class="label-space" aria-hidden="true">&nbsp;</span>
      <span class="live-line">
        <button type="button" class={on ? "live-toggle on" : "live-toggle"} aria-pressed={on} onClick={() => props.onChange(!on)}
          data-testid="live-toggle">
          <span class="live-dot" aria-hidden="true" /> Live
        </button>
        <span class={`live-status ${state.status}`} role="status" aria-live="polite" data-testid="live-status" data-state={on ? state.status : "off"}>
          {said}
        </span>
      </span>
    </div>
  );
}

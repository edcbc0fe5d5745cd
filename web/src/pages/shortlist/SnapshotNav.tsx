import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { Field } from "../../components/Field";
import { IST_LABEL, istTime } from "../../time";

/** The snapshot instant at or before an IST time of day "HH:MM" of `times`, or what is wrong. */
function snapshotAt(times: readonly Date[], hhmm: string): { at: Date } | { error: string } {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return { error: `“${hhmm}” is not a time of day: write HH:MM (IST), for example 10:30.` };
  const wanted = `${m[1]!.padStart(2, "0")}:${m[2]}:59`;
  const before = times.filter((t) => istTime(t) <= wanted);
  const first = times[0];
  if (!before.length) return { error: first ? `The first snapshot of the day is at ${istTime(first)} ${IST_LABEL}.` : "There is no snapshot that day." };
  return { at: before.at(-1)! };
}

/** Steps through the day's snapshot `times` (`index` is the one shown, `at` its IST wall clock) or goes to a time. */
export function SnapshotNav({ times, index, at, show }: {
  times: readonly Date[];
  index: number;
  at: string | undefined;
  show: (t: Date | undefined) => void;
}): VNode {
  const [goTo, setGoTo] = useState("");
  const [goError, setGoError] = useState<string | undefined>(undefined);
  const go = (e: Event) => {
    e.preventDefault();
    const found = snapshotAt(times, goTo);
    if ("error" in found) {
      setGoError(found.error);
      return;
    }
    setGoError(undefined);
    show(found.at);
  };

  return (
    <form class="toolbar snapshot-nav" onSubmit={go} aria-label="Snapshot">
      <div class="field inline">
        <span class="label-space">Snapshot ({IST_LABEL})</span>
        <span class="buttons">
          <button type="button" onClick={() => show(times[index - 1])} disabled={index <= 0}>◀ Previous</button>
          <output class="snapshot-now" data-testid="snapshot-now">
            {index >= 0 ? `${istTime(times[index]!)} (${index + 1} of ${times.length})` : at ? `as of ${at.slice(11)}` : "—"}
          </output>
          <button type="button" onClick={() => show(times[index + 1])} disabled={index < 0 || index >= times.length - 1}>Next ▶</button>
          <button type="button" onClick={() => show(times.at(-1))} disabled={index === times.length - 1}>Latest</button>
        </span>
      </div>
      <Field id="sl-goto" label="Go to time" className="inline" error={goError}>
        {(input) => <input {...input} inputMode="numeric" placeholder="HH:MM" size={6} value={goTo} onInput={(e) => setGoTo(e.currentTarget.value)} />}
      </Field>
      <button type="submit">Go</button>
    </form>
  );
}

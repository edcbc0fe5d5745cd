import type { VNode } from "preact";
import type { Invalid } from "../route";

/**
 * What a link asked for that the page could not use (a parameter of the
 * URL that does not parse), each with the reason, so nothing given is
 * dropped silently. `explain` gives the reason for one parameter.
 */
export function InvalidParams({ invalid, explain }: { invalid: Invalid | undefined; explain: (name: string, text: string) => string }): VNode | null {
  if (!invalid) return null;
  const entries = Object.entries(invalid);
  return (
    <div class="status error" role="alert" data-testid="invalid-params">
      <p>{entries.length === 1 ? "A value of this link was not used:" : "Values of this link were not used:"}</p>
      <ul>
        {entries.map(([name, text]) => <li key={name} data-param={name}>{explain(name, text)}</li>)}
      </ul>
    </div>
  );
}

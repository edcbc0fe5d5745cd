import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { formatPrice } from "../../format";

const key = (symbol: string) => `mdc.lines.${symbol}`;

function load(symbol: string | undefined): number[] {
  if (!symbol) return [];
  try {
    const list = JSON.parse(localStorage.getItem(key(symbol)) ?? "[]") as unknown;
    return Array.isArray(list) ? list.filter((n): n is number => typeof n === "number" && Number.isFinite(n)) : [];
  } catch {
    return [];
  }
}

export interface UserLinesState {
  symbol: string | undefined;
  lines: number[];
  add: (price: number) => void;
  remove: (price: number) => void;
}

/** Horizontal price lines a person draws on a symbol's chart, kept per symbol in this browser. */
export function useUserLines(symbol: string | undefined): UserLinesState {
  const [lines, setLines] = useState(() => load(symbol));
  useEffect(() => setLines(load(symbol)), [symbol]);
  const save = (next: number[]) => {
    setLines(next);
    if (!symbol) return;
    try {
      if (next.length) localStorage.setItem(key(symbol), JSON.stringify(next));
      else localStorage.removeItem(key(symbol));
    } catch {
      // Storage refused: the lines last for this page.
    }
  };
  return {
    symbol,
    lines,
    add: (price) => !lines.includes(price) && save([...lines, price].sort((a, b) => a - b)),
    remove: (price) => save(lines.filter((p) => p !== price)),
  };
}

/** Adding a line at a typed price, and the lines drawn, each removable. */
export function UserLines({ lines }: { lines: UserLinesState }): VNode {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const add = (e: Event) => {
    e.preventDefault();
    const price = Number(text.replace(/,/g, ""));
    if (text.trim() === "" || !Number.isFinite(price) || price <= 0) {
      setError(`“${text}” is not a price: write a number above 0, for example 1250.5.`);
      return;
    }
    setError(undefined);
    setText("");
    lines.add(Math.round(price * 100) / 100);
  };
  return (
    <form class="user-lines" onSubmit={add} noValidate aria-label="Price lines">
      <label for="line-price">Line at price</label>
      <input id="line-price" inputMode="decimal" size={10} value={text} onInput={(e) => setText(e.currentTarget.value)}
        aria-invalid={error ? true : undefined} aria-describedby={error ? "line-price-error" : undefined} />
      <button type="submit">Add line</button>
      {error && <p class="field-error" id="line-price-error" role="alert">{error}</p>}
      <ul data-testid="user-lines">
        {lines.lines.map((p) => (
          <li key={p}>
            <span>{formatPrice(p)}</span>
            <button type="button" class="small" onClick={() => lines.remove(p)} aria-label={`Remove the line at ${formatPrice(p)}`}>Remove</button>
          </li>
        ))}
      </ul>
    </form>
  );
}

import type { VNode } from "preact";
import { useMemo, useState } from "preact/hooks";
import type { FieldInputProps } from "./Field";

/** The symbols that match typed text, case-insensitively: those starting with it first, then those containing it. */
export function matchSymbols(symbols: readonly string[], text: string, limit = 12): string[] {
  const t = text.trim().toUpperCase();
  if (!t) return symbols.slice(0, limit);
  const starts = symbols.filter((s) => s.toUpperCase().startsWith(t));
  const contains = symbols.filter((s) => !s.toUpperCase().startsWith(t) && s.toUpperCase().includes(t));
  return [...starts, ...contains].slice(0, limit);
}

/** The stored spelling of a typed symbol (any case), when the day has it. */
export function storedSymbol(symbols: readonly string[], text: string): string | undefined {
  const t = text.trim().toUpperCase();
  return symbols.find((s) => s.toUpperCase() === t);
}

/**
 * A text input that suggests the symbols stored that day as one types (an
 * ARIA combobox: arrow keys move through the list, Enter or a click picks,
 * Escape closes). `onPick` gets a picked suggestion; what is typed stays
 * free text for the form to check.
 */
export function SymbolSearch(props: FieldInputProps & {
  value: string;
  symbols: readonly string[];
  /** Words for a suggestion ("NIFTY 50 index"). */
  describe?: (symbol: string) => string | undefined;
  onValue: (value: string) => void;
  onPick: (symbol: string) => void;
  /** The field the `/` key focuses. */
  shortcut?: boolean;
}): VNode {
  const { value, symbols, describe, onValue, onPick, shortcut, ...input } = props;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const shown = useMemo(() => matchSymbols(symbols, value), [symbols, value]);
  const listId = `${input.id}-suggestions`;
  const pick = (symbol: string) => {
    setOpen(false);
    onPick(symbol);
  };
  const key = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      const n = shown.length || 1;
      setActive((i) => (open ? (i + (e.key === "ArrowDown" ? 1 : n - 1)) % n : 0));
    } else if (e.key === "Enter" && open && shown[active] !== undefined) {
      e.preventDefault();
      pick(shown[active]!);
    } else if (e.key === "Escape") {
      setOpen(false);
    }
  };
  const expanded = open && shown.length > 0;
  return (
    <div class="combo">
      <input {...input} data-shortcut={shortcut ? "search" : undefined} role="combobox" aria-autocomplete="list" aria-expanded={expanded} aria-controls={listId}
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        autoComplete="off" spellcheck={false} autoCapitalize="characters" value={value}
        onInput={(e) => {
          onValue(e.currentTarget.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={key} />
      <ul id={listId} role="listbox" class="combo-list" hidden={!expanded} aria-label="Symbols with data that day">
        {shown.map((symbol, i) => (
          <li key={symbol} id={`${listId}-${i}`} role="option" aria-selected={i === active} class={i === active ? "active" : undefined}
            onMouseDown={(e) => {
              e.preventDefault(); // keep the focus in the input
              pick(symbol);
            }}>
            <span class="combo-symbol">{symbol}</span>
            {describe?.(symbol) && <span class="combo-note">{describe(symbol)}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

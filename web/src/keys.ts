/**
 * Keyboard shortcuts. The whole app's (the help overlay, search, going to a
 * page, the theme) are handled by useGlobalKeys in the layout; a page adds
 * its own with useKeys (the chart: days, intervals, live). Keys typed into
 * a field, or with Ctrl, Alt or Meta, are never taken. Every shortcut is
 * listed in SHORTCUTS, which the help overlay (`?`) shows.
 */
import { useEffect, useRef } from "preact/hooks";

export const SHORTCUTS: { keys: string; what: string; where: string }[] = [
  { keys: "?", what: "this help", where: "every page" },
  { keys: "/", what: "the page's search (a symbol)", where: "every page" },
  { keys: "g then w", what: "the watchlist", where: "every page" },
  { keys: "g then c", what: "the chart", where: "every page" },
  { keys: "g then s", what: "the shortlist", where: "every page" },
  { keys: "g then r", what: "the runs", where: "every page" },
  { keys: "g then v", what: "the coverage", where: "every page" },
  { keys: "t", what: "dark or light theme", where: "every page" },
  { keys: "← →", what: "previous or next trading day", where: "chart" },
  { keys: "+ −", what: "longer or shorter interval", where: "chart" },
  { keys: "[ ]", what: "shorter or longer range of days", where: "chart" },
  { keys: "l", what: "live mode on or off", where: "chart" },
  { keys: "f", what: "fit the candles in view", where: "chart" },
  { keys: "Esc", what: "close this help", where: "help" },
];

/** Whether a key event belongs to a field (typing) or carries a modifier. */
export function isTyping(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return true;
  const el = e.target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
}

/** Calls handlers[e.key] for keys pressed outside fields while the component is shown; a handler returning false lets the key pass. */
export function useKeys(handlers: Record<string, () => boolean | void>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || document.querySelector("dialog[open]")) return;
      const handler = current.current[e.key];
      if (handler && handler() !== false) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** Focuses the page's search field (marked data-shortcut="search"); false when the page has none. */
export function focusSearch(): boolean {
  const field = document.querySelector<HTMLInputElement>("[data-shortcut='search']");
  if (!field) return false;
  field.focus();
  field.select();
  return true;
}

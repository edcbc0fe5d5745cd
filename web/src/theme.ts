/**
 * Light or dark: by default the system's setting (prefers-color-scheme),
 * or what the person chose with the header's switch, kept in localStorage.
 * The choice is applied as `data-theme` on <html>, which styles.css reads;
 * the chart reads isDark() (useTheme re-renders on a change).
 */
import { useEffect, useState } from "preact/hooks";

export type ThemeChoice = "system" | "light" | "dark";
const KEY = "mdc.theme";
const listeners = new Set<() => void>();

const media = (): MediaQueryList | undefined =>
  typeof window !== "undefined" && window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : undefined;

export function themeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

export function isDark(): boolean {
  const choice = themeChoice();
  return choice === "dark" || (choice === "system" && Boolean(media()?.matches));
}

/** Sets data-theme on <html> from the choice and the system's setting. */
export function applyTheme(): void {
  document.documentElement.dataset["theme"] = isDark() ? "dark" : "light";
  for (const listener of listeners) listener();
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused (a private window): the choice lasts for this page.
  }
  applyTheme();
}

/** Light if dark now, dark if light (the `t` key). */
export function toggleTheme(): void {
  setThemeChoice(isDark() ? "light" : "dark");
}

/** Applies the theme now and whenever the system's setting changes. */
export function startTheme(): void {
  applyTheme();
  media()?.addEventListener("change", applyTheme);
}

/** Whether the page is dark; the component re-renders when that changes. */
export function useTheme(): { dark: boolean; choice: ThemeChoice } {
  const [state, setState] = useState(() => ({ dark: isDark(), choice: themeChoice() }));
  useEffect(() => {
    const update = () => setState({ dark: isDark(), choice: themeChoice() });
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return state;
}

import type { VNode } from "preact";
import { type ThemeChoice, setThemeChoice, useTheme } from "../theme";

/** The header's switch: follow the system's setting, or light, or dark. */
export function ThemeSwitch(): VNode {
  const { choice } = useTheme();
  return (
    <label class="theme-switch">
      <span class="visually-hidden">Theme</span>
      <select value={choice} onChange={(e) => setThemeChoice(e.currentTarget.value as ThemeChoice)} data-testid="theme-switch"
        aria-label="Theme">
        <option value="system">Auto</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

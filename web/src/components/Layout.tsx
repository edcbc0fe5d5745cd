import type { ComponentChildren, VNode } from "preact";
import { useRef, useState } from "preact/hooks";
import { signOut } from "../api";
import { focusSearch, useKeys } from "../keys";
import type { PageName } from "../route";
import { navigate } from "../router";
import { type User, isAdmin } from "../session";
import { toggleTheme } from "../theme";
import { HelpDialog } from "./HelpDialog";
import { Link } from "./Link";
import { ThemeSwitch } from "./ThemeSwitch";

const SECTIONS: { to: string; label: string; pages: PageName[]; admin?: boolean }[] = [
  { to: "/runs", label: "Runs", pages: ["runs", "run", "compare"] },
  { to: "/chart", label: "Chart", pages: ["chart"] },
  { to: "/watchlist", label: "Watchlist", pages: ["watchlist"] },
  { to: "/shortlist", label: "Shortlist", pages: ["shortlist"] },
  { to: "/companies", label: "Companies", pages: ["companies"] },
  { to: "/coverage", label: "Coverage", pages: ["coverage"] },
  { to: "/admin/developers", label: "Developers", pages: ["admin-developers"], admin: true },
  { to: "/admin/holidays", label: "Holidays", pages: ["admin-holidays"], admin: true },
  { to: "/admin/data", label: "Data", pages: ["admin-data"], admin: true },
  { to: "/admin/scripts", label: "Scripts", pages: ["admin-scripts"], admin: true },
];

/** "g" then one of these letters: go to the page. */
const GO_TO: Record<string, string> = { w: "/watchlist", c: "/chart", s: "/shortlist", r: "/runs", v: "/coverage" };

export function Layout({ user, page, children }: { user: User; page: PageName; children: ComponentChildren }): VNode {
  const sections = SECTIONS.filter((s) => !s.admin || isAdmin(user));
  const [help, setHelp] = useState(false);
  // When "g" was pressed: a letter within 1.5 s of it opens a page.
  const pendingGo = useRef(0);
  const going = () => Date.now() - pendingGo.current < 1_500;
  const go = (letter: string) => () => {
    if (!going()) return false;
    pendingGo.current = 0;
    navigate(GO_TO[letter]!);
    return true;
  };
  useKeys({
    "?": () => setHelp(true),
    "/": () => focusSearch(),
    t: () => (going() ? false : toggleTheme()),
    g: () => {
      pendingGo.current = Date.now();
    },
    ...Object.fromEntries(Object.keys(GO_TO).map((letter) => [letter, go(letter)])),
  });
  return (
    <div class="app">
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <Link to="/runs" class="brand">mdc</Link>
        <nav aria-label="Pages">
          <ul>
            {sections.map((s) => (
              <li key={s.to} class={s.admin ? "admin-link" : undefined}>
                <Link to={s.to} current={s.pages.includes(page)}>{s.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <ThemeSwitch />
          <button type="button" class="help-button" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">?</button>
          <span title={`developer ${user.id}`}>
            {user.username} <span class="role">{user.role}</span>
          </span>
          <button
            type="button"
            onClick={() => {
              signOut();
              navigate("/sign-in");
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
      <HelpDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}

import type { ComponentChildren, VNode } from "preact";
import { signOut } from "../api";
import type { PageName } from "../route";
import { navigate } from "../router";
import { type User, isAdmin } from "../session";
import { Link } from "./Link";

const SECTIONS: { to: string; label: string; pages: PageName[]; admin?: boolean }[] = [
  { to: "/runs", label: "Runs", pages: ["runs", "run", "compare"] },
  { to: "/chart", label: "Chart", pages: ["chart"] },
  { to: "/shortlist", label: "Shortlist", pages: ["shortlist"] },
  { to: "/companies", label: "Companies", pages: ["companies"] },
  { to: "/coverage", label: "Coverage", pages: ["coverage"] },
  { to: "/admin/developers", label: "Developers", pages: ["admin-developers"], admin: true },
  { to: "/admin/holidays", label: "Holidays", pages: ["admin-holidays"], admin: true },
  { to: "/admin/data", label: "Data", pages: ["admin-data"], admin: true },
  { to: "/admin/scripts", label: "Scripts", pages: ["admin-scripts"], admin: true },
];

export function Layout({ user, page, children }: { user: User; page: PageName; children: ComponentChildren }): VNode {
  const sections = SECTIONS.filter((s) => !s.admin || isAdmin(user));
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
    </div>
  );
}

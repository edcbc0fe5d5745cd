/**
 * Navigation without page loads: the URL is the state (route.ts), changed
 * with history.pushState (a new view) or replaceState (a filter of the same
 * view), and every change re-renders the app through useRoute.
 */
import { useEffect, useState } from "preact/hooks";
import { type Route, formatRoute, parseRoute } from "./route";

const listeners = new Set<() => void>();

function here(): string {
  return window.location.pathname + window.location.search;
}

export function currentRoute(): Route {
  return parseRoute(here());
}

export function navigate(to: string | Route, opts: { replace?: boolean } = {}): void {
  const url = typeof to === "string" ? to : formatRoute(to);
  if (url === here()) return;
  if (opts.replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  if (!opts.replace) window.scrollTo(0, 0);
  for (const listener of listeners) listener();
}

window.addEventListener("popstate", () => {
  for (const listener of listeners) listener();
});

/** The current route; the component re-renders when it changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return route;
}

/**
 * Changes fields of the current route in place (replaceState): filters,
 * sort orders and pickers of one view, so Back leaves the view rather than
 * stepping through every filter.
 */
export function updateRoute<R extends Route>(route: R, patch: Partial<R>): void {
  navigate({ ...route, ...patch }, { replace: true });
}

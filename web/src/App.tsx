import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { currentUser, onSessionChange } from "./api";
import { Layout } from "./components/Layout";
import { lazy } from "./components/Lazy";
import { CompaniesPage } from "./pages/CompaniesPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { RunComparePage } from "./pages/RunComparePage";
import { RunPage } from "./pages/RunPage";
import { RunsPage } from "./pages/RunsPage";
import { ShortlistPage } from "./pages/ShortlistPage";
import { SignInPage } from "./pages/SignInPage";
import { type Route, formatRoute, isAdminPage } from "./route";
import { navigate, useRoute } from "./router";
import { isAdmin } from "./session";

// Loaded when first opened: the chart brings lightweight-charts, and only
// admins see the admin pages.
const ChartPage = lazy(() => import("./pages/chart/ChartPage").then((m) => m.default), "the chart");
const WatchlistPage = lazy(() => import("./pages/WatchlistPage").then((m) => m.WatchlistPage), "the watchlist");
// An operator's page: loaded when first opened.
const CoveragePage = lazy(() => import("./pages/CoveragePage").then((m) => m.CoveragePage), "the coverage");
const admin = () => import("./pages/admin");
const DevelopersPage = lazy(() => admin().then((m) => m.DevelopersPage), "developers");
const HolidaysPage = lazy(() => admin().then((m) => m.HolidaysPage), "holidays");
const DataPage = lazy(() => admin().then((m) => m.DataPage), "dates with data");
const ScriptsPage = lazy(() => admin().then((m) => m.ScriptsPage), "scripts");

const TITLES: Record<Route["page"], string> = {
  "sign-in": "Sign in", runs: "Runs", run: "Run", compare: "Compare runs", chart: "Chart", watchlist: "Watchlist", shortlist: "Shortlist",
  coverage: "Coverage", companies: "Companies",
  "admin-developers": "Developers", "admin-holidays": "Holidays", "admin-data": "Data", "admin-scripts": "Scripts",
  "not-found": "Not found",
};

function Page({ route }: { route: Route }): VNode {
  switch (route.page) {
    case "runs": return <RunsPage route={route} />;
    case "run": return <RunPage key={route.runId} route={route} />;
    case "compare": return <RunComparePage route={route} />;
    case "coverage": return <CoveragePage route={route} />;
    case "chart": return <ChartPage route={route} />;
    case "watchlist": return <WatchlistPage route={route} />;
    case "shortlist": return <ShortlistPage route={route} />;
    case "companies": return <CompaniesPage route={route} />;
    case "admin-developers": return <DevelopersPage />;
    case "admin-holidays": return <HolidaysPage route={route} />;
    case "admin-data": return <DataPage />;
    case "admin-scripts": return <ScriptsPage />;
    case "sign-in": return <NotFoundPage path="/sign-in" reason="You are signed in." />;
    case "not-found": return <NotFoundPage path={route.path} />;
  }
}

export function App(): VNode {
  const route = useRoute();
  const [user, setUser] = useState(currentUser);
  useEffect(() => onSessionChange(() => setUser(currentUser())), []);
  useEffect(() => {
    document.title = `${TITLES[route.page]} · mdc`;
  }, [route.page]);
  // Signed out (or the token stopped working): sign in, then come back here.
  useEffect(() => {
    if (!user && route.page !== "sign-in") {
      const here = window.location.pathname + window.location.search;
      navigate(formatRoute({ page: "sign-in", next: here === "/" ? undefined : here }), { replace: true });
    } else if (user && route.page === "sign-in") {
      navigate(route.next ?? "/runs", { replace: true });
    }
  }, [user, route]);

  if (!user) return route.page === "sign-in" ? <SignInPage next={route.next} /> : <></>;
  if (isAdminPage(route.page) && !isAdmin(user)) {
    return (
      <Layout user={user} page={route.page}>
        <NotFoundPage path="" reason="This page is for admins only." />
      </Layout>
    );
  }
  return (
    <Layout user={user} page={route.page}>
      <Page route={route} />
    </Layout>
  );
}

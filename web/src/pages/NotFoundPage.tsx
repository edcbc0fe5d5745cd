import type { VNode } from "preact";
import { Link } from "../components/Link";

export function NotFoundPage({ path, reason }: { path: string; reason?: string }): VNode {
  return (
    <section>
      <h1>Page not found</h1>
      <p>{reason ?? <>There is no page at <code>{path}</code>.</>}</p>
      <p><Link to="/runs">Go to the runs</Link></p>
    </section>
  );
}

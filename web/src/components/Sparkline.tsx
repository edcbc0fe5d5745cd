import type { VNode } from "preact";

/** A small line of intraday prices (no axes): green when the last is at or above the reference, red below it. */
export function Sparkline({ points, reference, label }: { points: readonly [number, number][]; reference?: number | undefined; label: string }): VNode {
  const W = 120;
  const H = 28;
  if (points.length < 2) {
    return <svg class="spark" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${label}: not enough prices yet`} data-points={points.length} />;
  }
  const prices = points.map((p) => p[1]);
  const lo = Math.min(...prices, ...(reference !== undefined ? [reference] : []));
  const hi = Math.max(...prices, ...(reference !== undefined ? [reference] : []));
  const [t0, t1] = [points[0]![0], points.at(-1)![0]];
  const x = (t: number) => ((t - t0) / (t1 - t0 || 1)) * (W - 2) + 1;
  const y = (v: number) => H - 2 - ((v - lo) / (hi - lo || 1)) * (H - 4);
  const up = reference === undefined || prices.at(-1)! >= reference;
  return (
    <svg class={`spark ${up ? "up" : "down"}`} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img"
      aria-label={`${label}: ${points.length} prices of the day`} data-points={points.length}>
      {reference !== undefined && <line class="spark-ref" x1={0} x2={W} y1={y(reference)} y2={y(reference)} />}
      <polyline fill="none" points={points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ")} />
    </svg>
  );
}

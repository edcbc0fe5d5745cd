import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { formatSignedPrice } from "../format";
import type { EquityPoint } from "../runstats";

export const CURVE_COLORS = ["#1e40af", "#b45309", "#15803d", "#7c3aed", "#be123c", "#0f766e"];

export interface Curve {
  label: string;
  points: EquityPoint[];
}

const W_DEFAULT = 640;
const W_MAX = 960;
const H = 220;

/** The width an element is drawn at, followed as it changes (so the SVG's units are pixels and its text keeps its size). */
function useWidth(ref: { current: Element | null }): number | undefined {
  const [width, setWidth] = useState<number | undefined>(undefined);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setWidth(Math.round(el.getBoundingClientRect().width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return width;
}
const PAD = { left: 64, right: 12, top: 12, bottom: 28 };

/** Round steps for an axis: about `count` ticks from `min` to `max`. */
function ticks(min: number, max: number, count: number): number[] {
  const span = max - min || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step / 1e6; v += step) out.push(Math.abs(v) < step / 1e6 ? 0 : v);
  return out;
}

/**
 * Equity curves: the cumulative P&L per share of each run, trade by trade
 * in the order the trades exited (x: the trade's number), drawn as SVG with
 * the zero line; a legend names each curve and its final value.
 */
export function EquityCurve({ curves, title }: { curves: Curve[]; title: string }): VNode {
  const frame = useRef<HTMLDivElement>(null);
  const measured = useWidth(frame);
  const W = Math.min(W_MAX, Math.max(240, measured ?? W_DEFAULT));
  const all = curves.flatMap((c) => c.points);
  const maxTrade = Math.max(1, ...all.map((p) => p.trade));
  const values = [0, ...all.map((p) => p.equity)];
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  const margin = (hi - lo || Math.abs(hi) || 1) * 0.08;
  const [yMin, yMax] = [lo - margin, hi + margin];
  // x from 0 (before the first trade, at zero) to the last trade.
  const x = (trade: number) => PAD.left + (trade / maxTrade) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - yMin) / (yMax - yMin)) * (H - PAD.top - PAD.bottom);
  const summary = curves.map((c) => `${c.label}: ${c.points.length} trades, ending at ${formatSignedPrice(c.points.at(-1)?.equity ?? 0)} per share`).join("; ");
  return (
    <figure class="equity" data-testid="equity-curve">
      <div ref={frame} class="equity-frame">
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`${title}. ${summary}`}>
        {ticks(yMin, yMax, 4).map((v) => (
          <g key={`y${v}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} class={v === 0 ? "zero" : "grid"} />
            <text x={PAD.left - 6} y={y(v) + 4} text-anchor="end">{formatSignedPrice(v)}</text>
          </g>
        ))}
        {ticks(1, maxTrade, Math.min(W < 480 ? 4 : 8, maxTrade)).filter((t) => Number.isInteger(t) && t >= 1).map((t) => (
          <text key={`x${t}`} x={x(t)} y={H - 8} text-anchor="middle">{t}</text>
        ))}
        {curves.map((c, i) => (
          <polyline key={c.label} fill="none" stroke={CURVE_COLORS[i % CURVE_COLORS.length]} stroke-width={2}
            points={[`${x(0)},${y(0)}`, ...c.points.map((p) => `${x(p.trade)},${y(p.equity)}`)].join(" ")} />
        ))}
      </svg>
      </div>
      <figcaption>
        {title}: cumulative P&amp;L per share after each trade (x: trade number, in the order trades exited).{" "}
        <span class="curve-legend">
          {curves.map((c, i) => (
            <span key={c.label}><span class="swatch" style={{ background: CURVE_COLORS[i % CURVE_COLORS.length] }} aria-hidden="true" />
              {c.label} {formatSignedPrice(c.points.at(-1)?.equity ?? 0)}</span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}

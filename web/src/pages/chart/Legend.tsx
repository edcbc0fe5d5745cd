import type { ComponentChildren, VNode } from "preact";
import { formatCount, formatPercent, formatPrice } from "../../format";
import { formatIST, istDate } from "../../time";
import { fromChartTime } from "./chartdata";

/** The values of one bar (chart time: IST-shifted seconds), as the legend shows them. */
export interface LegendValues {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | undefined;
  /** The overlay's value at that time, when there is one. */
  overlay: number | undefined;
}

/**
 * The open, high, low, close and volume of the bar under the crosshair, or
 * of the last bar when the pointer is elsewhere; with an overlay, its value
 * and both changes since the day's first bar (the percent scale's).
 */
export function Legend(props: {
  symbol: string;
  values: LegendValues | undefined;
  hovering: boolean;
  overlayLabel?: string | undefined;
  overlayBase?: number | undefined;
  overlayLatest?: number | undefined;
  priceBase?: number | undefined;
  /** Daily or weekly bars: the time as a date. */
  daily?: boolean | undefined;
  /** The indicators' switches and values. */
  children?: ComponentChildren;
}): VNode {
  const v = props.values;
  const change = (value: number | undefined, base: number | undefined) =>
    value !== undefined && base ? formatPercent(((value - base) / base) * 100) : "—";
  const overlay = v?.overlay ?? (props.hovering ? undefined : props.overlayLatest);
  return (
    <div class="chart-legend" data-testid="chart-legend" aria-live="off">
      <span class="legend-symbol">{props.symbol}</span>
      {v ? (
        <>
          <span class="legend-time" data-field="time">{props.daily ? istDate(fromChartTime(v.time)) : formatIST(fromChartTime(v.time), { seconds: false })}</span>
          <span><abbr title="Open">O</abbr> <b data-field="open">{formatPrice(v.open)}</b></span>
          <span><abbr title="High">H</abbr> <b data-field="high">{formatPrice(v.high)}</b></span>
          <span><abbr title="Low">L</abbr> <b data-field="low">{formatPrice(v.low)}</b></span>
          <span><abbr title="Close">C</abbr> <b data-field="close">{formatPrice(v.close)}</b></span>
          <span><abbr title="Volume in this bar">V</abbr> <b data-field="volume">{formatCount(v.volume)}</b></span>
          {props.overlayLabel && (
            <>
              <span class="legend-change">{props.symbol} <b data-field="change">{change(v.close, props.priceBase)}</b></span>
              <span class="legend-overlay">{props.overlayLabel} <b data-field="overlay">{formatPrice(overlay)}</b>{" "}
                (<span data-field="overlay-change">{change(overlay, props.overlayBase)}</span>)</span>
            </>
          )}
          {!props.hovering && <span class="legend-note">last bar</span>}
        </>
      ) : (
        <span class="legend-note">no bar</span>
      )}
      {props.children}
    </div>
  );
}

import {
  type AutoscaleInfo, type BarData, CandlestickSeries, type SingleValueData, ColorType, CrosshairMode, HistogramSeries, type IChartApi, type IPriceLine, type ISeriesApi,
  type ISeriesMarkersPluginApi, LineSeries, type MouseEventParams, PriceScaleMode, type Time, type UTCTimestamp,
  createChart, createSeriesMarkers,
} from "lightweight-charts";
import type { VNode } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Bar, Marker, PriceLineSpec, VolumeBar } from "./chartdata";
import { formatPrice } from "../../format";
import { useKeys } from "../../keys";
import type { IndicatorName } from "../../route";
import { useTheme } from "../../theme";
import { INDICATOR_SPECS, type IndicatorValues, type Series, indicatorValues } from "./indicators";
import { Legend, type LegendValues } from "./Legend";

/** The chart's colours in the light and the dark theme. */
const THEMES = {
  light: { background: "#ffffff", text: "#1f2937", grid: "#eef0f3", border: "#d1d5db" },
  dark: { background: "#111827", text: "#e5e7eb", grid: "#1f2937", border: "#374151" },
};

const UP = "#15803d";
const DOWN = "#b91c1c";
export const OVERLAY_COLOR = "#7c3aed";
const VOLUME_PANE_HEIGHT = 110;

/** A line drawn over the candles on the same percent scale (NIFTY 50). */
export interface Overlay {
  label: string;
  points: { time: number; value: number }[];
  /** Its first price of the day (its first candle's open): what its change is measured from. */
  base: number | undefined;
}

/** A bar the chart draws in place of (or after) its last one: a live quote's. */
export interface LiveUpdate {
  /** Increases with each update, so that the same bar twice still counts. */
  seq: number;
  bar: Bar;
  volume: VolumeBar;
}

const at = (t: number) => t as UTCTimestamp;

/**
 * Candles in the main pane and volume in a pane of its own underneath
 * (TradingView's lightweight-charts), a legend with the open, high, low,
 * close and volume of the bar under the crosshair (the last bar otherwise),
 * price lines (an order's entry, target and stop), order markers, and an
 * optional overlay on a percent scale. Drag to pan, wheel or pinch to zoom;
 * the buttons do the same from the keyboard. Live quotes arrive as `live`
 * and are drawn with series.update(), not by drawing the day again. Times
 * arrive shifted to IST (chartdata.ts), so the axis reads IST.
 */
export function CandleChart(props: {
  prices: Bar[];
  volumes: VolumeBar[];
  markers: Marker[];
  priceLines: PriceLineSpec[];
  overlay?: Overlay | undefined;
  live?: LiveUpdate | undefined;
  label: string;
  symbol: string;
  /** Daily or weekly candles: the axis and the legend in dates. */
  daily?: boolean | undefined;
  /** Bars of several sessions: an empty slot between two sessions marks the break. */
  breaks?: boolean | undefined;
  indicators?: IndicatorName[] | undefined;
  onIndicators?: ((list: IndicatorName[]) => void) | undefined;
}): VNode {
  const { dark } = useTheme();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const candles = useRef<ISeriesApi<"Candlestick"> | undefined>(undefined);
  const volume = useRef<ISeriesApi<"Histogram"> | undefined>(undefined);
  const overlay = useRef<ISeriesApi<"Line"> | undefined>(undefined);
  const markers = useRef<ISeriesMarkersPluginApi<Time> | undefined>(undefined);
  const lines = useRef<IPriceLine[]>([]);
  const lastBars = useRef<{ prices: Bar[]; volumes: VolumeBar[] }>({ prices: [], volumes: [] });
  const indicatorSeries = useRef<ISeriesApi<"Line">[]>([]);
  const [hovered, setHovered] = useState<LegendValues | undefined>(undefined);
  const [latest, setLatest] = useState<LegendValues | undefined>(undefined);

  // The chart and its series, once.
  useEffect(() => {
    if (!box.current) return;
    const colors = THEMES[dark ? "dark" : "light"];
    const c = createChart(box.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: colors.background },
        textColor: colors.text,
        fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        attributionLogo: false, // attributed in the caption under the chart instead
        panes: { separatorColor: "#d1d5db" },
      },
      crosshair: { mode: CrosshairMode.Normal },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      timeScale: { timeVisible: true, secondsVisible: false, borderColor: "#d1d5db" },
      rightPriceScale: { borderColor: "#d1d5db" },
      localization: { locale: "en-IN" },
    });
    candles.current = c.addSeries(CandlestickSeries, {
      upColor: UP, downColor: DOWN, borderUpColor: UP, borderDownColor: DOWN, wickUpColor: UP, wickDownColor: DOWN,
    });
    volume.current = c.addSeries(HistogramSeries, { priceFormat: { type: "volume" }, lastValueVisible: false, priceLineVisible: false }, 1);
    c.panes()[1]?.setHeight(VOLUME_PANE_HEIGHT);
    markers.current = createSeriesMarkers(candles.current, []);
    c.subscribeCrosshairMove((param: MouseEventParams<Time>) => {
      const bar = param.time !== undefined && candles.current ? (param.seriesData.get(candles.current) as BarData | undefined) : undefined;
      if (!bar || bar.open === undefined) {
        setHovered(undefined);
        return;
      }
      const vol = volume.current ? (param.seriesData.get(volume.current) as SingleValueData | undefined) : undefined;
      const over = overlay.current ? (param.seriesData.get(overlay.current) as SingleValueData | undefined) : undefined;
      setHovered({
        time: bar.time as number, open: bar.open, high: bar.high, low: bar.low, close: bar.close,
        volume: vol?.value, overlay: over?.value,
      });
    });
    chart.current = c;
    return () => {
      chart.current = undefined;
      candles.current = volume.current = overlay.current = undefined;
      markers.current = undefined;
      lines.current = [];
      indicatorSeries.current = [];
      c.remove();
    };
  }, []);

  // The theme: the chart's own colours follow the page's.
  useEffect(() => {
    const colors = THEMES[dark ? "dark" : "light"];
    chart.current?.applyOptions({
      layout: { background: { type: ColorType.Solid, color: colors.background }, textColor: colors.text, panes: { separatorColor: colors.border } },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      timeScale: { borderColor: colors.border },
      rightPriceScale: { borderColor: colors.border },
    });
  }, [dark]);

  useEffect(() => {
    chart.current?.applyOptions({ timeScale: { timeVisible: !props.daily } });
  }, [props.daily]);

  // The day's bars: drawn whole, and the view fitted to them.
  useEffect(() => {
    candles.current?.setData(withBreaks(props.prices, Boolean(props.breaks)));
    volume.current?.setData(props.volumes.map((v) => ({ time: at(v.time), value: v.value, color: v.up ? "#15803d66" : "#b91c1c66" })));
    lastBars.current = { prices: props.prices, volumes: props.volumes };
    chart.current?.timeScale().fitContent();
    setLatest(legendOf(props.prices.at(-1), props.volumes.at(-1)));
  }, [props.prices, props.volumes]);

  // A live quote's bar: the last one changed, or a new one.
  useEffect(() => {
    const update = props.live;
    if (!update || !candles.current || !volume.current) return;
    candles.current.update({ ...update.bar, time: at(update.bar.time) });
    volume.current.update({ time: at(update.volume.time), value: update.volume.value, color: update.volume.up ? "#15803d66" : "#b91c1c66" });
    setLatest(legendOf(update.bar, update.volume));
  }, [props.live?.seq]);

  useEffect(() => {
    markers.current?.setMarkers(props.markers.map((m) => ({ ...m, time: at(m.time) })));
  }, [props.markers]);

  useEffect(() => {
    const series = candles.current;
    if (!series) return;
    for (const line of lines.current) series.removePriceLine(line);
    lines.current = props.priceLines.map((l) =>
      series.createPriceLine({ price: l.price, color: l.color, lineWidth: 1, lineStyle: l.dashed ? 2 : 0, axisLabelVisible: true, title: l.title }));
    // The price scale reaches the lines too, so an order's target and stop are in view with its candles
    // (not in percent mode, where the lines' prices mean nothing).
    const prices = props.priceLines.map((l) => l.price);
    series.applyOptions({
      autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => {
        const info = base();
        if (!info?.priceRange || prices.length === 0 || props.overlay) return info;
        return {
          ...info,
          priceRange: {
            minValue: Math.min(info.priceRange.minValue, ...prices),
            maxValue: Math.max(info.priceRange.maxValue, ...prices),
          },
        };
      },
    });
  }, [props.priceLines, props.overlay?.label]);

  // The overlay: on the candles' scale, which shows percent changes from the first bar in view while it is there.
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    if (overlay.current) {
      c.removeSeries(overlay.current);
      overlay.current = undefined;
    }
    if (props.overlay) {
      overlay.current = c.addSeries(LineSeries, {
        color: OVERLAY_COLOR, lineWidth: 2, priceLineVisible: false, lastValueVisible: true, title: props.overlay.label,
      });
    }
    c.priceScale("right").applyOptions({ mode: props.overlay ? PriceScaleMode.Percentage : PriceScaleMode.Normal });
  }, [props.overlay?.label]);
  useEffect(() => {
    overlay.current?.setData((props.overlay?.points ?? []).map((p) => ({ time: at(p.time), value: p.value })));
  }, [props.overlay?.label, props.overlay?.points]);

  // Indicators: computed from the bars drawn (indicators.ts), each a line; RSI in a pane of its own.
  const values = useMemo(
    () => indicatorValues(props.prices.map((b) => ({ ...b, session: Math.floor(b.time / 86_400) })), props.volumes.map((v) => v.value)),
    [props.prices, props.volumes],
  );
  const shown = (props.indicators ?? []).filter((i) => !(i === "vwap" && props.daily));
  const shownKey = shown.join(",");
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    for (const series of indicatorSeries.current) c.removeSeries(series);
    indicatorSeries.current = [];
    const line = (data: Series, color: string, title: string, pane = 0, dashed = false) => {
      const series = c.addSeries(LineSeries, {
        color, lineWidth: 1, lineStyle: dashed ? 2 : 0, priceLineVisible: false, lastValueVisible: false, title, crosshairMarkerVisible: false,
      }, pane);
      series.setData(props.prices.flatMap((b, i) => (data[i] === undefined ? [] : [{ time: at(b.time), value: data[i]! }])));
      indicatorSeries.current.push(series);
    };
    for (const name of shown) {
      const spec = INDICATOR_SPECS[name];
      if (name === "bb") {
        line(values.bbUpper, spec.color, "BB upper", 0, true);
        line(values.bbMiddle, spec.color, "BB middle");
        line(values.bbLower, spec.color, "BB lower", 0, true);
      } else if (name === "rsi") {
        line(values.rsi, spec.color, spec.label, 2);
        c.panes()[2]?.setHeight(VOLUME_PANE_HEIGHT);
      } else {
        line(values[name], spec.color, spec.label);
      }
    }
  }, [shownKey, values]);
  const indexOf = useMemo(() => new Map(props.prices.map((b, i) => [b.time, i])), [props.prices]);

  const zoom = (factor: number) => {
    const scale = chart.current?.timeScale();
    const range = scale?.getVisibleLogicalRange();
    if (!scale || !range) return;
    const middle = (range.from + range.to) / 2;
    const half = Math.max(2, ((range.to - range.from) / 2) * factor);
    scale.setVisibleLogicalRange({ from: middle - half, to: middle + half });
  };
  const pan = (bars: number) => {
    const scale = chart.current?.timeScale();
    const range = scale?.getVisibleLogicalRange();
    if (scale && range) scale.setVisibleLogicalRange({ from: range.from + bars, to: range.to + bars });
  };

  useKeys({ f: () => chart.current?.timeScale().fitContent() });
  const legendValues = hovered ?? latest;
  const at_ = legendValues ? indexOf.get(legendValues.time) : undefined;
  const toggle = (name: IndicatorName) => {
    const list = props.indicators ?? [];
    props.onIndicators?.(list.includes(name) ? list.filter((i) => i !== name) : [...list, name]);
  };

  return (
    <figure class="chart">
      <div class="chart-tools" role="group" aria-label="Chart view">
        <button type="button" onClick={() => zoom(0.5)}>Zoom in</button>
        <button type="button" onClick={() => zoom(2)}>Zoom out</button>
        <button type="button" onClick={() => pan(-10)} aria-label="Pan left">◀</button>
        <button type="button" onClick={() => pan(10)} aria-label="Pan right">▶</button>
        <button type="button" onClick={() => chart.current?.timeScale().fitContent()}>Fit</button>
      </div>
      <div class="chart-area">
        <Legend symbol={props.symbol} values={hovered ?? latest} hovering={hovered !== undefined}
          overlayLabel={props.overlay?.label} overlayBase={props.overlay?.base}
          overlayLatest={props.overlay?.points.at(-1)?.value} priceBase={props.prices[0]?.open} daily={props.daily}>
          {props.onIndicators && (
            <IndicatorToggles on={props.indicators ?? []} values={values} index={at_} daily={Boolean(props.daily)} toggle={toggle} />
          )}
        </Legend>
        <div class="chart-box" ref={box} role="img" aria-label={props.label} data-testid="candle-chart" />
      </div>
      <figcaption>
        {props.label}. Times in IST; volume in the lower pane.
        {props.priceLines.length > 0 && (
          <span data-testid="price-lines"> Lines: {props.priceLines.map((l) => `${l.title} ${formatPrice(l.price)}`).join(", ")}.</span>
        )}{" "}
        Chart by{" "}
        <a href="https://www.tradingview.com/lightweight-charts/" rel="noreferrer">TradingView Lightweight Charts™</a>.
      </figcaption>
    </figure>
  );
}

/** Bars for the chart, with an empty slot (whitespace) after each session's last bar when `breaks`. */
function withBreaks(prices: readonly Bar[], breaks: boolean): ({ time: UTCTimestamp } | (Bar & { time: UTCTimestamp }))[] {
  const out: ({ time: UTCTimestamp } | (Bar & { time: UTCTimestamp }))[] = [];
  for (let i = 0; i < prices.length; i++) {
    const b = prices[i]!;
    const prev = prices[i - 1];
    if (breaks && prev && Math.floor(prev.time / 86_400) !== Math.floor(b.time / 86_400)) out.push({ time: at(prev.time + 1) });
    out.push({ ...b, time: at(b.time) });
  }
  return out;
}

/** The indicators' switches in the legend, each with its value at the bar the legend shows. */
function IndicatorToggles(props: { on: IndicatorName[]; values: IndicatorValues; index: number | undefined; daily: boolean; toggle: (name: IndicatorName) => void }): VNode {
  const value = (series: Series) => formatPrice(props.index === undefined ? undefined : series[props.index]);
  const shown: Record<IndicatorName, string> = {
    vwap: value(props.values.vwap),
    sma: value(props.values.sma),
    ema: value(props.values.ema),
    bb: `${value(props.values.bbLower)} / ${value(props.values.bbMiddle)} / ${value(props.values.bbUpper)}`,
    rsi: props.index === undefined || props.values.rsi[props.index] === undefined ? "—" : props.values.rsi[props.index]!.toFixed(2),
  };
  return (
    <span class="indicators" role="group" aria-label="Indicators">
      {(Object.keys(INDICATOR_SPECS) as IndicatorName[]).map((name) => {
        const on = props.on.includes(name);
        const disabled = name === "vwap" && props.daily;
        return (
          <label key={name} class="check indicator" style={{ color: on ? INDICATOR_SPECS[name].color : undefined }}
            title={disabled ? "VWAP is a session's: not drawn on daily candles" : undefined}>
            <input type="checkbox" checked={on && !disabled} disabled={disabled} onChange={() => props.toggle(name)} data-testid={`indicator-${name}`} />
            {INDICATOR_SPECS[name].label}
            {on && !disabled && <b data-field={name}>{shown[name]}</b>}
          </label>
        );
      })}
    </span>
  );
}

function legendOf(bar: Bar | undefined, vol: VolumeBar | undefined): LegendValues | undefined {
  return bar ? { ...bar, volume: vol?.value, overlay: undefined } : undefined;
}

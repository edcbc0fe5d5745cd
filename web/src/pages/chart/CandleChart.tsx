import {
  type AutoscaleInfo, type BarData, CandlestickSeries, type SingleValueData, ColorType, CrosshairMode, HistogramSeries, type IChartApi, type IPriceLine, type ISeriesApi,
  type ISeriesMarkersPluginApi, LineSeries, type MouseEventParams, PriceScaleMode, type Time, type UTCTimestamp,
  createChart, createSeriesMarkers,
} from "lightweight-charts";
import type { VNode } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type Bar, type Marker, type PriceLineSpec, type VolumeBar, withBreaks } from "./chartdata";
import { formatPrice } from "../../format";
import { useKeys } from "../../keys";
import type { IndicatorName } from "../../route";
import { useTheme } from "../../theme";
import { INDICATOR_SPECS, type IndicatorValues, type Series, indicatorValues } from "./indicators";
import { IndicatorToggles } from "./IndicatorToggles";
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
  const indicatorSeries = useRef<{ series: ISeriesApi<"Line">; data: (v: IndicatorValues) => Series }[]>([]);
  // The bars as drawn, live updates included: what the indicators are computed from.
  const [drawn, setDrawn] = useState<{ prices: Bar[]; volumes: VolumeBar[] }>({ prices: props.prices, volumes: props.volumes });
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
    candles.current?.setData(withBreaks(props.prices, Boolean(props.breaks)).map((b) => ({ ...b, time: at(b.time) })));
    volume.current?.setData(props.volumes.map((v) => ({ time: at(v.time), value: v.value, color: v.up ? "#15803d66" : "#b91c1c66" })));
    lastBars.current = { prices: props.prices, volumes: props.volumes };
    chart.current?.timeScale().fitContent();
    setLatest(legendOf(props.prices.at(-1), props.volumes.at(-1)));
    setDrawn({ prices: props.prices, volumes: props.volumes });
  }, [props.prices, props.volumes]);

  // A live quote's bar: the last one changed, or a new one.
  useEffect(() => {
    const update = props.live;
    if (!update || !candles.current || !volume.current) return;
    candles.current.update({ ...update.bar, time: at(update.bar.time) });
    volume.current.update({ time: at(update.volume.time), value: update.volume.value, color: update.volume.up ? "#15803d66" : "#b91c1c66" });
    setLatest(legendOf(update.bar, update.volume));
    setDrawn((prev) => withBar(prev, update.bar, update.volume));
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

  // Indicators: computed from the bars drawn (indicators.ts), live bars included, each a line; RSI in a pane of its own.
  const values = useMemo(
    () => indicatorValues(drawn.prices.map((b) => ({ ...b, session: Math.floor(b.time / 86_400) })), drawn.volumes.map((v) => v.value)),
    [drawn],
  );
  const shown = (props.indicators ?? []).filter((i) => !(i === "vwap" && props.daily));
  const shownKey = shown.join(",");
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    for (const { series } of indicatorSeries.current) c.removeSeries(series);
    indicatorSeries.current = [];
    const line = (data: (v: IndicatorValues) => Series, color: string, title: string, pane = 0, dashed = false) => {
      const series = c.addSeries(LineSeries, {
        color, lineWidth: 1, lineStyle: dashed ? 2 : 0, priceLineVisible: false, lastValueVisible: false, title, crosshairMarkerVisible: false,
      }, pane);
      indicatorSeries.current.push({ series, data });
    };
    for (const name of shown) {
      const spec = INDICATOR_SPECS[name];
      if (name === "bb") {
        line((v) => v.bbUpper, spec.color, "BB upper", 0, true);
        line((v) => v.bbMiddle, spec.color, "BB middle");
        line((v) => v.bbLower, spec.color, "BB lower", 0, true);
      } else if (name === "rsi") {
        line((v) => v.rsi, spec.color, spec.label, 2);
        c.panes()[2]?.setHeight(VOLUME_PANE_HEIGHT);
      } else {
        line((v) => v[name], spec.color, spec.label);
      }
    }
  }, [shownKey]);
  // Their values: set whole when the bars change (a live bar changes the last values of each).
  useEffect(() => {
    for (const { series, data } of indicatorSeries.current) {
      const points = data(values);
      series.setData(drawn.prices.flatMap((b, i) => (points[i] === undefined ? [] : [{ time: at(b.time), value: points[i]! }])));
    }
  }, [shownKey, values]);
  const indexOf = useMemo(() => new Map(drawn.prices.map((b, i) => [b.time, i])), [drawn]);

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

/** The bars after a live bar: the last one replaced (same time) or one more. */
function withBar(drawn: { prices: Bar[]; volumes: VolumeBar[] }, bar: Bar, volume: VolumeBar): { prices: Bar[]; volumes: VolumeBar[] } {
  const same = drawn.prices.at(-1)?.time === bar.time;
  return {
    prices: [...(same ? drawn.prices.slice(0, -1) : drawn.prices), bar],
    volumes: [...(same ? drawn.volumes.slice(0, -1) : drawn.volumes), volume],
  };
}

function legendOf(bar: Bar | undefined, vol: VolumeBar | undefined): LegendValues | undefined {
  return bar ? { ...bar, volume: vol?.value, overlay: undefined } : undefined;
}

import {
  CandlestickSeries, ColorType, HistogramSeries, type IChartApi, type UTCTimestamp, createChart, createSeriesMarkers,
} from "lightweight-charts";
import type { VNode } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { Bar, Marker, VolumeBar } from "./chartdata";

const UP = "#15803d";
const DOWN = "#b91c1c";

/**
 * Candles with volume underneath (TradingView's lightweight-charts): drag to
 * pan, wheel or pinch to zoom; the buttons do the same from the keyboard.
 * Times arrive shifted to IST (chartdata.ts), so the axis reads IST.
 */
export function CandleChart(props: { prices: Bar[]; volumes: VolumeBar[]; markers: Marker[]; label: string }): VNode {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);

  useEffect(() => {
    if (!box.current) return;
    const c = createChart(box.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: "#ffffff" },
        textColor: "#1f2937",
        fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        attributionLogo: false, // attributed in the caption under the chart instead
      },
      grid: { vertLines: { color: "#eef0f3" }, horzLines: { color: "#eef0f3" } },
      timeScale: { timeVisible: true, secondsVisible: false, borderColor: "#d1d5db" },
      rightPriceScale: { borderColor: "#d1d5db" },
      localization: { locale: "en-IN" },
    });
    const candles = c.addSeries(CandlestickSeries, {
      upColor: UP, downColor: DOWN, borderUpColor: UP, borderDownColor: DOWN, wickUpColor: UP, wickDownColor: DOWN,
    });
    candles.setData(props.prices.map((b) => ({ ...b, time: b.time as UTCTimestamp })));
    const volume = c.addSeries(HistogramSeries, { priceFormat: { type: "volume" }, priceScaleId: "volume", lastValueVisible: false, priceLineVisible: false });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
    volume.setData(props.volumes.map((v) => ({ time: v.time as UTCTimestamp, value: v.value, color: v.up ? "#15803d66" : "#b91c1c66" })));
    createSeriesMarkers(candles, props.markers.map((m) => ({ ...m, time: m.time as UTCTimestamp })));
    c.timeScale().fitContent();
    chart.current = c;
    return () => {
      chart.current = undefined;
      c.remove();
    };
  }, [props.prices, props.volumes, props.markers]);

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

  return (
    <figure class="chart">
      <div class="chart-tools" role="group" aria-label="Chart view">
        <button type="button" onClick={() => zoom(0.5)}>Zoom in</button>
        <button type="button" onClick={() => zoom(2)}>Zoom out</button>
        <button type="button" onClick={() => pan(-10)} aria-label="Pan left">◀</button>
        <button type="button" onClick={() => pan(10)} aria-label="Pan right">▶</button>
        <button type="button" onClick={() => chart.current?.timeScale().fitContent()}>Fit</button>
      </div>
      <div class="chart-box" ref={box} role="img" aria-label={props.label} data-testid="candle-chart" />
      <figcaption>
        {props.label}. Times in IST. Chart by{" "}
        <a href="https://www.tradingview.com/lightweight-charts/" rel="noreferrer">TradingView Lightweight Charts™</a>.
      </figcaption>
    </figure>
  );
}

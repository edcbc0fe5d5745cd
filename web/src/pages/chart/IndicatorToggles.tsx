import type { VNode } from "preact";
import { formatPrice } from "../../format";
import type { IndicatorName } from "../../route";
import { INDICATOR_SPECS, type IndicatorValues, type Series } from "./indicators";

/** The indicators' switches in the legend, each with its value at the bar the legend shows. */
export function IndicatorToggles(props: { on: IndicatorName[]; values: IndicatorValues; index: number | undefined; daily: boolean; toggle: (name: IndicatorName) => void }): VNode {
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


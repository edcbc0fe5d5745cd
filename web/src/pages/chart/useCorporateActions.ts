import { MdcError } from "@mdc/client";
import { api } from "../../api";
import { useAsync } from "../../hooks";
import type { CorporateAction } from "./corporateActions";

/** The corporate actions of the chart's range, and whether the security master knows the symbol at all. */
export interface ChartActions {
  known: boolean;
  actions: CorporateAction[];
}

/**
 * The corporate actions of `symbol` with ex-date in [from, to] (IST dates),
 * read when `enabled` (a range of a stock's candles). A symbol the security
 * master does not have is not an error here: it has no actions, and prices
 * cannot be adjusted for it (`known` false).
 */
export function useCorporateActions(symbol: string | undefined, from: string | undefined, to: string | undefined, enabled: boolean) {
  return useAsync<ChartActions>(async () => {
    if (!enabled || !symbol || !from || !to) return { known: false, actions: [] };
    try {
      const actions = await api().corporateActions(symbol, { start: istDay(from), end: istDay(to) });
      return { known: true, actions };
    } catch (error) {
      if (error instanceof MdcError && error.code === "INVALID_ARGUMENT" && error.fieldViolations.some((v) => v.field === "symbol")) {
        return { known: false, actions: [] };
      }
      throw error;
    }
  }, [symbol, from, to, enabled]);
}

/** Noon IST of a date: the trading day it names, whatever the browser's zone. */
function istDay(date: string): Date {
  return new Date(`${date}T12:00:00+05:30`);
}

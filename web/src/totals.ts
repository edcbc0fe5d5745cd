/**
 * What an order's outcome says: the rules of docs/api.md section 5.4 read
 * back for people (runstats.ts adds up a run's orders).
 */

/** The outcome fields the dashboard reads (TradeOutcome of the API). */
export interface OutcomeLike {
  targetPrice?: number | null | undefined;
  stopLossPrice?: number | null | undefined;
  targetAchieved?: boolean | null | undefined;
  stopLossHit?: boolean | null | undefined;
  minutesToTarget?: number | null | undefined;
  minutesToStopLoss?: number | null | undefined;
  maxGainPercentage?: number | null | undefined;
}

export interface OrderLike {
  entryPrice?: number | null | undefined;
  stopLossPrice?: number | null | undefined;
  takeProfitPrice?: number | null | undefined;
  outcome?: OutcomeLike | null | undefined;
}

/**
 * - "target": the target was reached before the stop;
 * - "stop": the stop was hit first (or in the same candle as the target);
 * - "open": candles after the order were walked and neither happened;
 * - "no-data": no candle after the order's minute (no quotes stored yet).
 */
export type OutcomeKind = "target" | "stop" | "open" | "no-data";

export function outcomeKind(outcome: OutcomeLike | null | undefined): OutcomeKind {
  if (!outcome) return "no-data";
  if (outcome.targetAchieved) return "target";
  if (outcome.stopLossHit) return "stop";
  // Both flags are present (false) exactly when candles were walked.
  if (outcome.targetAchieved === false && outcome.stopLossHit === false) return "open";
  return "no-data";
}

export const OUTCOME_LABELS: Record<OutcomeKind, string> = {
  target: "Target hit",
  stop: "Stop hit",
  open: "Open",
  "no-data": "No data",
};

/** The price an order ended at: its target or its stop, when one was hit. */
export function exitPrice(order: OrderLike): number | undefined {
  const kind = outcomeKind(order.outcome);
  if (kind === "target") return order.outcome?.targetPrice ?? order.takeProfitPrice ?? undefined;
  if (kind === "stop") return order.outcome?.stopLossPrice ?? order.stopLossPrice ?? undefined;
  return undefined;
}

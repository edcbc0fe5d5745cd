/**
 * What an order's outcome says, and the totals of a run's orders: the rules
 * of docs/api.md section 5.4 read back for people.
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

/** The return of a closed order in percent of its entry price. */
export function returnPercent(order: OrderLike): number | undefined {
  const exit = exitPrice(order);
  if (exit === undefined || exit === null || !order.entryPrice) return undefined;
  return ((exit - order.entryPrice) / order.entryPrice) * 100;
}

export interface OrderTotals {
  orders: number;
  target: number;
  stop: number;
  open: number;
  noData: number;
  /** Targets among the orders that ended (target or stop), in percent. */
  hitRate: number | undefined;
  /** Mean minutes to target of the orders that reached it. */
  avgMinutesToTarget: number | undefined;
  /** Sum over the ended orders of exit - entry: the gain of one share each. */
  pnlPerShare: number;
  /** Mean return in percent over the ended orders. */
  avgReturnPercent: number | undefined;
}

export function orderTotals(orders: readonly OrderLike[]): OrderTotals {
  const t: OrderTotals = {
    orders: orders.length, target: 0, stop: 0, open: 0, noData: 0,
    hitRate: undefined, avgMinutesToTarget: undefined, pnlPerShare: 0, avgReturnPercent: undefined,
  };
  let minutes = 0;
  let timed = 0;
  let returns = 0;
  let ended = 0;
  for (const order of orders) {
    const kind = outcomeKind(order.outcome);
    if (kind === "target") t.target++;
    else if (kind === "stop") t.stop++;
    else if (kind === "open") t.open++;
    else t.noData++;
    const toTarget = order.outcome?.minutesToTarget;
    if (kind === "target" && typeof toTarget === "number") {
      minutes += toTarget;
      timed++;
    }
    const exit = exitPrice(order);
    const r = returnPercent(order);
    if (exit !== undefined && typeof order.entryPrice === "number" && r !== undefined) {
      t.pnlPerShare += exit - order.entryPrice;
      returns += r;
      ended++;
    }
  }
  const decided = t.target + t.stop;
  if (decided > 0) t.hitRate = (t.target / decided) * 100;
  if (timed > 0) t.avgMinutesToTarget = minutes / timed;
  if (ended > 0) t.avgReturnPercent = returns / ended;
  return t;
}

/**
 * A run's orders valued for analysis across runs: each closed order at its
 * target or stop (docs/api.md section 5.4), each open order at its day's
 * session close (the close of its symbol's day candle), so that P&L, returns
 * and the equity curve count every order that has data. Pure: the close
 * prices come in as a lookup (runs.ts reads them).
 */
import { sessionOf, istDate } from "./time";
import { type OrderLike, type OutcomeKind, exitPrice, outcomeKind } from "./totals";

export interface OrderWithTimes extends OrderLike {
  id?: string | null | undefined;
  nseSymbol?: string | null | undefined;
  time?: string | null | undefined;
  outcome?: (OrderLike["outcome"] & { targetTime?: string | null | undefined; stopLossTime?: string | null | undefined }) | null | undefined;
}

/** The close of a symbol's session on a day, when known. */
export type CloseLookup = (symbol: string, date: string) => number | undefined;

export interface ValuedOrder<O extends OrderWithTimes = OrderWithTimes> {
  order: O;
  kind: OutcomeKind;
  /** The price it is valued at: target, stop, or the session close for an open order. */
  exit: number | undefined;
  /** When: the target or stop candle, or the session's close (15:30 IST) for an open order. */
  exitTime: Date | undefined;
  /** exit - entry, for one share. */
  pnl: number | undefined;
  /** pnl in percent of the entry. */
  returnPercent: number | undefined;
  /** An open order valued at its session's close. */
  atClose: boolean;
}

/** The key of a symbol's day: "RELIANCE 2025-01-02". */
export function dayKey(symbol: string, date: string): string {
  return `${symbol} ${date}`;
}

/** The (symbol, day) of every open order: the closes to look up. */
export function closesNeeded(orders: readonly OrderWithTimes[]): { symbol: string; date: string }[] {
  const seen = new Map<string, { symbol: string; date: string }>();
  for (const o of orders) {
    if (outcomeKind(o.outcome) !== "open" || !o.nseSymbol || !o.time) continue;
    const date = istDate(new Date(o.time));
    seen.set(dayKey(o.nseSymbol, date), { symbol: o.nseSymbol, date });
  }
  return [...seen.values()];
}

export function valueOrders<O extends OrderWithTimes>(orders: readonly O[], closeOf: CloseLookup): ValuedOrder<O>[] {
  return orders.map((order) => {
    const kind = outcomeKind(order.outcome);
    let exit = exitPrice(order);
    let exitTime: Date | undefined;
    let atClose = false;
    if (kind === "target" && order.outcome?.targetTime) exitTime = new Date(order.outcome.targetTime);
    if (kind === "stop" && order.outcome?.stopLossTime) exitTime = new Date(order.outcome.stopLossTime);
    if (kind === "open" && order.nseSymbol && order.time) {
      const date = istDate(new Date(order.time));
      exit = closeOf(order.nseSymbol, date);
      exitTime = exit === undefined ? undefined : sessionOf(date).close;
      atClose = exit !== undefined;
    }
    const entry = order.entryPrice ?? undefined;
    const pnl = exit !== undefined && entry ? exit - entry : undefined;
    return { order, kind, exit, exitTime, pnl, returnPercent: pnl !== undefined && entry ? (pnl / entry) * 100 : undefined, atClose };
  });
}

export interface RunStats {
  orders: number;
  target: number;
  stop: number;
  open: number;
  noData: number;
  /** Targets among the orders that reached their target or their stop, in percent (open and no-data not counted). */
  hitRate: number | undefined;
  /** Sum of exit - entry over the valued orders (closed, and open at the session close): one share each. */
  pnlPerShare: number;
  /** Mean return in percent over the valued orders. */
  avgReturnPercent: number | undefined;
  /** Orders valued (closed, or open with a known close). */
  valued: number;
  /** Open orders valued at their session's close. */
  openAtClose: number;
}

export const HIT_RATE_DEFINITION =
  "Hit rate: of the orders that reached their target or their stop, the share that reached the target first. " +
  "Open orders and orders without data are not counted.";

export const PNL_DEFINITION =
  "P&L per share: the sum over the orders of exit price minus entry price, one share each; an order exits at its " +
  "target or stop, an open one at its day's session close (15:30 IST). Average return: the mean of those " +
  "differences in percent of the entry.";

export function runStats(valued: readonly ValuedOrder[]): RunStats {
  const s: RunStats = {
    orders: valued.length, target: 0, stop: 0, open: 0, noData: 0,
    hitRate: undefined, pnlPerShare: 0, avgReturnPercent: undefined, valued: 0, openAtClose: 0,
  };
  let returns = 0;
  for (const v of valued) {
    if (v.kind === "target") s.target++;
    else if (v.kind === "stop") s.stop++;
    else if (v.kind === "open") s.open++;
    else s.noData++;
    if (v.atClose) s.openAtClose++;
    if (v.pnl !== undefined && v.returnPercent !== undefined) {
      s.pnlPerShare += v.pnl;
      returns += v.returnPercent;
      s.valued++;
    }
  }
  if (s.target + s.stop > 0) s.hitRate = (s.target / (s.target + s.stop)) * 100;
  if (s.valued > 0) s.avgReturnPercent = returns / s.valued;
  return s;
}

export interface EquityPoint {
  /** 1, 2, ...: the trade's place by exit time. */
  trade: number;
  time: Date;
  /** The P&L per share of the trades up to this one. */
  equity: number;
  symbol: string;
}

/** The cumulative P&L per share, trade by trade in the order they exited. */
export function equityCurve(valued: readonly ValuedOrder[]): EquityPoint[] {
  const exited = valued
    .filter((v): v is ValuedOrder & { exitTime: Date; pnl: number } => v.exitTime !== undefined && v.pnl !== undefined)
    .sort((a, b) => a.exitTime.getTime() - b.exitTime.getTime());
  let equity = 0;
  return exited.map((v, i) => {
    equity += v.pnl;
    return { trade: i + 1, time: v.exitTime, equity, symbol: v.order.nseSymbol ?? "" };
  });
}

/**
 * The browser's stand-in for node:async_hooks, which @mdc/client imports for
 * its backtest clock (MdcClient.withBacktestClock keeps the clock in an
 * AsyncLocalStorage). The dashboard shows market data as stored and never
 * sets a clock: getStore() is always undefined, so no clock header is sent,
 * and run() refuses rather than silently dropping the clock across awaits.
 */
export class AsyncLocalStorage<T> {
  getStore(): T | undefined {
    return undefined;
  }

  run<R>(_store: T, _fn: () => R): R {
    throw new Error("the backtest clock (withBacktestClock) is not available in the browser build of @mdc/client");
  }
}

-- Less work per stored row for the collector writes (docs/performance.md).

-- The written_by foreign keys checked the writer once per row: a trigger
-- and a lookup for each of a 300-quote batch's rows, about a fifth of the
-- statement's time. The writes now find their writer once per statement and
-- lock it FOR KEY SHARE (the lock the check took: MDC_WRITER_CTE), and
-- deleting a developer clears written_by itself after locking the developer
-- FOR UPDATE (DeveloperRepository::Delete), so no write can slip in between
-- and written_by still only ever names an existing developer or is NULL.
ALTER TABLE shortlist_snapshots DROP CONSTRAINT shortlist_snapshots_written_by_fkey;
ALTER TABLE stock_quotes DROP CONSTRAINT stock_quotes_written_by_fkey;
ALTER TABLE nifty_quotes DROP CONSTRAINT nifty_quotes_written_by_fkey;

-- stock_quotes kept two B-trees on (nse_symbol, observed_at): the primary
-- key and the covering stock_quotes_prices (0004). The primary key now
-- carries the prices itself, so candles and outcomes keep their index-only
-- scans and every stored quote updates one B-tree fewer.
ALTER TABLE stock_quotes
  DROP CONSTRAINT stock_quotes_pkey,
  ADD CONSTRAINT stock_quotes_pkey PRIMARY KEY (nse_symbol, observed_at)
    INCLUDE (last_price, volume);
DROP INDEX stock_quotes_prices;

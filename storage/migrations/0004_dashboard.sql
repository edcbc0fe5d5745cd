-- The dashboard's additions.

-- Failed dashboard sign-ins per client address and minute, so every replica
-- of the server sees the same count and more than 10 failures a minute from
-- one address are refused until that minute has passed. Rows older than a
-- few minutes are purged as new failures are recorded.
CREATE TABLE sign_in_failures (
  client_address  text NOT NULL,
  minute          timestamptz NOT NULL,
  failures        integer NOT NULL CHECK (failures > 0),
  PRIMARY KEY (client_address, minute)
);
CREATE INDEX sign_in_failures_by_minute ON sign_in_failures (minute);

-- Candles and trade outcomes read only the prices of a symbol's day: with
-- them in the index, those reads are index-only scans of a few pages per
-- symbol-day instead of one heap page per quote (a day's quotes of one
-- symbol are scattered over the heap, interleaved with every other symbol's).
CREATE INDEX stock_quotes_prices ON stock_quotes (nse_symbol, observed_at)
  INCLUDE (last_price, volume);

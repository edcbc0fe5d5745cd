-- Collector freshness (docs/api.md, "Coverage"; docs/operations.md,
-- "Metrics"): when each developer last wrote market records of each kind,
-- per trading day of the records, and how many. An operator sees a dead
-- collector at a glance, and every server exports the same
-- mdc_developer_last_write_timestamp_seconds from it.
--
-- Not written by the market writes themselves: a row per developer updated
-- in every write transaction would make one developer's concurrent writes
-- wait for each other (an upsert locks the row it conflicts with until
-- commit). Each server instead tallies its committed writes in memory and
-- merges the tallies here about once a second, one statement per flush
-- (service/lifecycle/write_activity.h); so this lags the writes by up to a
-- second, and a server that crashes loses at most that second's tallies.
CREATE TABLE developer_writes (
  developer_id      bigint NOT NULL REFERENCES developers (id)
                    ON DELETE CASCADE,
  kind              text NOT NULL
                    CHECK (kind IN ('quotes', 'nifty', 'shortlists')),
  -- The trading day of the records written (Asia/Kolkata).
  trading_day       date NOT NULL,
  -- When the developer last wrote records of this kind and day.
  last_written_at   timestamptz NOT NULL,
  -- The latest instant among those records.
  last_observed_at  timestamptz NOT NULL,
  -- Records written (a record written again counts again).
  records           bigint NOT NULL CHECK (records >= 0),
  PRIMARY KEY (developer_id, kind, trading_day)
);

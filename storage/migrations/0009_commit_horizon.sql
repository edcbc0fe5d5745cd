-- Streams without serialised commits (docs/performance.md, "The ingest cost
-- of the streams"). Migration 0008 made `seq` grow in commit order by having
-- every market write take one advisory lock until its commit, and notified
-- listeners from a trigger; both made concurrent market writes commit one at
-- a time, which cost the ingest 17-27%.
--
-- Now a record's place in the stream is (txid, seq): the id of the
-- transaction that wrote it (pg_current_xact_id(), 64 bits, never reused),
-- then its number from the sequence. Transactions still commit in any
-- order, but readers only take records whose transaction id is below the
-- horizon of their snapshot, pg_snapshot_xmin(pg_current_snapshot()): every
-- transaction below it has ended, so no record can appear later at a place
-- below one already read, and "after (txid, seq)" never skips a commit. A
-- record whose transaction is above the horizon waits until every older
-- transaction has ended (a delay, never a gap): an open transaction that
-- has written anything holds back the streams for as long as it stays open
-- (storage/market_event_repository.h).
--
-- Listeners are no longer notified by a trigger: each server's market hub
-- notifies once per batch of its own commits, outside the write
-- transactions (service/streams/market_hub.h).
--
-- Records stored before this migration get txid 0, so they come before any
-- later record, in their old seq order; an old cursor N means (0, N).

DROP TRIGGER stock_quotes_lock ON stock_quotes;
DROP TRIGGER nifty_quotes_lock ON nifty_quotes;
DROP TRIGGER shortlist_snapshots_lock ON shortlist_snapshots;
DROP TRIGGER stock_quotes_notify ON stock_quotes;
DROP TRIGGER nifty_quotes_notify ON nifty_quotes;
DROP TRIGGER shortlist_snapshots_notify ON shortlist_snapshots;
DROP FUNCTION market_events_lock();
DROP FUNCTION market_events_notify();

-- A constant default first, so existing rows are not rewritten.
ALTER TABLE stock_quotes ADD COLUMN txid xid8 NOT NULL DEFAULT '0';
ALTER TABLE nifty_quotes ADD COLUMN txid xid8 NOT NULL DEFAULT '0';
ALTER TABLE shortlist_snapshots ADD COLUMN txid xid8 NOT NULL DEFAULT '0';
ALTER TABLE stock_quotes ALTER COLUMN txid SET DEFAULT pg_current_xact_id();
ALTER TABLE nifty_quotes ALTER COLUMN txid SET DEFAULT pg_current_xact_id();
ALTER TABLE shortlist_snapshots
  ALTER COLUMN txid SET DEFAULT pg_current_xact_id();

-- An upsert that replaces a record moves it to its new transaction's place.
CREATE OR REPLACE FUNCTION market_events_renumber() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.txid := pg_current_xact_id();
  NEW.seq := nextval('market_event_seq');
  RETURN NEW;
END $$;

DROP INDEX stock_quotes_by_seq;
DROP INDEX nifty_quotes_by_seq;
DROP INDEX shortlist_snapshots_by_seq;
CREATE INDEX stock_quotes_by_txid_seq ON stock_quotes (txid, seq);
CREATE INDEX nifty_quotes_by_txid_seq ON nifty_quotes (txid, seq);
CREATE INDEX shortlist_snapshots_by_txid_seq
  ON shortlist_snapshots (txid, seq);

-- Streams (docs/api.md "Streams"): every stored market record carries `seq`,
-- a number from one sequence that increases in commit order, and every
-- committing write notifies channel `mdc_market_events`.
--
-- Why commit order: watchers resume "after cursor N" and each server's hub
-- reads "seq > last seen" when notified, so no record may become visible
-- with a seq below one already read. A plain sequence hands out numbers at
-- insert time, and two transactions can commit in the other order. So a
-- statement that writes market records first takes a transaction-level
-- advisory lock (before any of its rows draws a number: statement triggers
-- fire before the rows' defaults are computed) and keeps it until commit;
-- PostgreSQL makes a transaction visible before it releases its locks, so
-- whoever draws the next numbers does so after every smaller number is
-- visible. The price: market writes of different transactions commit one
-- at a time (docs/performance.md).
--
-- An upsert that replaces a record gives it a new seq (trigger below), so
-- a resumed watcher gets the latest version of each record changed after
-- its cursor. Deleting records (admin data deletes) sends nothing.

CREATE SEQUENCE market_event_seq;

CREATE FUNCTION market_events_lock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- 4242003: any constant unique to mdc (4242001 is the migrations' lock).
  PERFORM pg_advisory_xact_lock(4242003);
  RETURN NULL;
END $$;

CREATE FUNCTION market_events_renumber() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.seq := nextval('market_event_seq');
  RETURN NEW;
END $$;

-- The payload is the table's name: identical notifications of one
-- transaction are delivered once, and listeners read the rows themselves
-- (a quote batch would not fit NOTIFY's 8000 bytes).
CREATE FUNCTION market_events_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mdc_market_events', TG_TABLE_NAME);
  RETURN NULL;
END $$;

ALTER TABLE stock_quotes
  ADD COLUMN seq bigint NOT NULL DEFAULT nextval('market_event_seq');
ALTER TABLE nifty_quotes
  ADD COLUMN seq bigint NOT NULL DEFAULT nextval('market_event_seq');
ALTER TABLE shortlist_snapshots
  ADD COLUMN seq bigint NOT NULL DEFAULT nextval('market_event_seq');
CREATE INDEX stock_quotes_by_seq ON stock_quotes (seq);
CREATE INDEX nifty_quotes_by_seq ON nifty_quotes (seq);
CREATE INDEX shortlist_snapshots_by_seq ON shortlist_snapshots (seq);

-- Day replay reads a day in time order in keyset pages: these replace the
-- plain (trading_day) indexes, which serve the per-day reads and deletes
-- just as well as a prefix of them. Ties at one instant go by byte order
-- (COLLATE "C"), whatever the database's collation.
CREATE INDEX stock_quotes_by_day_time
  ON stock_quotes (trading_day, observed_at, nse_symbol COLLATE "C");
DROP INDEX stock_quotes_by_day;
CREATE INDEX shortlist_snapshots_by_day_time
  ON shortlist_snapshots (trading_day, observed_at, shortlist_type COLLATE "C",
                          scope COLLATE "C");
DROP INDEX shortlist_snapshots_by_day;

CREATE TRIGGER stock_quotes_lock BEFORE INSERT OR UPDATE ON stock_quotes
  FOR EACH STATEMENT EXECUTE FUNCTION market_events_lock();
CREATE TRIGGER nifty_quotes_lock BEFORE INSERT OR UPDATE ON nifty_quotes
  FOR EACH STATEMENT EXECUTE FUNCTION market_events_lock();
CREATE TRIGGER shortlist_snapshots_lock BEFORE INSERT OR UPDATE
  ON shortlist_snapshots FOR EACH STATEMENT
  EXECUTE FUNCTION market_events_lock();

CREATE TRIGGER stock_quotes_renumber BEFORE UPDATE ON stock_quotes
  FOR EACH ROW EXECUTE FUNCTION market_events_renumber();
CREATE TRIGGER nifty_quotes_renumber BEFORE UPDATE ON nifty_quotes
  FOR EACH ROW EXECUTE FUNCTION market_events_renumber();
CREATE TRIGGER shortlist_snapshots_renumber BEFORE UPDATE
  ON shortlist_snapshots FOR EACH ROW
  EXECUTE FUNCTION market_events_renumber();

CREATE TRIGGER stock_quotes_notify AFTER INSERT OR UPDATE ON stock_quotes
  FOR EACH STATEMENT EXECUTE FUNCTION market_events_notify();
CREATE TRIGGER nifty_quotes_notify AFTER INSERT OR UPDATE ON nifty_quotes
  FOR EACH STATEMENT EXECUTE FUNCTION market_events_notify();
CREATE TRIGGER shortlist_snapshots_notify AFTER INSERT OR UPDATE
  ON shortlist_snapshots FOR EACH STATEMENT
  EXECUTE FUNCTION market_events_notify();

-- Partitioned history (docs/architecture.md, "Partitioned history"): the
-- three market tables become range-partitioned by trading_day, one
-- partition per calendar month of the trading day (Asia/Kolkata), plus a
-- DEFAULT partition so that a write for a month without a partition never
-- fails. Old months are then dropped whole (retention, purge-before) and a
-- whole month asked for by "delete data for dates" is truncated, instead of
-- deleting row by row.
--
-- Keys. A unique key of a partitioned table must contain the partition key,
-- so each primary key gains trading_day. The server computes trading_day
-- from observed_at (domain::TradingDay), so (nse_symbol, observed_at,
-- trading_day) is unique exactly when (nse_symbol, observed_at) is, and the
-- upserts name the longer key in ON CONFLICT (storage/*_repository.cc).
-- Every market key now also holds trading_day, and the quotes' key holds
-- nse_symbol: what a distributed PostgreSQL (Citus) would need to spread
-- quotes by symbol and NIFTY quotes and shortlists by day
-- (docs/architecture.md, "Beyond one database").
--
-- Partitions are created ahead by mdc_ensure_partitions (below), called
-- here and by every server at start-up and then hourly
-- (service/lifecycle/history_maintenance.h); it also moves rows that landed
-- in the DEFAULT partition into their month's new partition. Plain SQL, not
-- pg_partman: one function is all the scheme needs, and every deployment
-- (managed PostgreSQL included) keeps working without an extension.
--
-- The move: each table is renamed away, a partitioned table takes its name
-- with the same columns, defaults, indexes and trigger, partitions are
-- created for every month holding data, the rows are copied as they are
-- (seq and txid included: only UPDATE renumbers), and the old table is
-- dropped. All in the migrations' one transaction: a failure leaves the
-- database as it was.

-- The view reads the tables; it is recreated at the end, unchanged.
DROP VIEW out_of_range_instants;

ALTER TABLE stock_quotes RENAME TO stock_quotes_unpartitioned;
ALTER INDEX stock_quotes_pkey RENAME TO stock_quotes_unpartitioned_pkey;
ALTER INDEX stock_quotes_by_day_time
  RENAME TO stock_quotes_unpartitioned_by_day_time;
ALTER INDEX stock_quotes_by_txid_seq
  RENAME TO stock_quotes_unpartitioned_by_txid_seq;

ALTER TABLE nifty_quotes RENAME TO nifty_quotes_unpartitioned;
ALTER INDEX nifty_quotes_pkey RENAME TO nifty_quotes_unpartitioned_pkey;
ALTER INDEX nifty_quotes_by_day RENAME TO nifty_quotes_unpartitioned_by_day;
ALTER INDEX nifty_quotes_by_txid_seq
  RENAME TO nifty_quotes_unpartitioned_by_txid_seq;

ALTER TABLE shortlist_snapshots RENAME TO shortlist_snapshots_unpartitioned;
ALTER INDEX shortlist_snapshots_pkey
  RENAME TO shortlist_snapshots_unpartitioned_pkey;
ALTER INDEX shortlist_snapshots_by_day_time
  RENAME TO shortlist_snapshots_unpartitioned_by_day_time;
ALTER INDEX shortlist_snapshots_by_txid_seq
  RENAME TO shortlist_snapshots_unpartitioned_by_txid_seq;

-- The same columns in the same order, with the same checks and defaults.
CREATE TABLE stock_quotes (
  nse_symbol   text NOT NULL,
  observed_at  timestamptz NOT NULL,
  trading_day  date NOT NULL,
  last_price   double precision,
  volume       double precision,
  quote_data   bytea NOT NULL,
  written_by   bigint,
  written_at   timestamptz NOT NULL DEFAULT now(),
  seq          bigint NOT NULL DEFAULT nextval('market_event_seq'),
  txid         xid8 NOT NULL DEFAULT pg_current_xact_id(),
  -- Prices included for the index-only candle reads (migration 0005).
  CONSTRAINT stock_quotes_pkey
    PRIMARY KEY (nse_symbol, observed_at, trading_day)
    INCLUDE (last_price, volume)
) PARTITION BY RANGE (trading_day);
CREATE INDEX stock_quotes_by_day_time
  ON stock_quotes (trading_day, observed_at, nse_symbol COLLATE "C");
CREATE INDEX stock_quotes_by_txid_seq ON stock_quotes (txid, seq);

CREATE TABLE nifty_quotes (
  observed_at      timestamptz NOT NULL,
  trading_day      date NOT NULL,
  last_price       double precision,
  volume           double precision,
  day_change_perc  double precision NOT NULL,
  quote_data       bytea NOT NULL,
  written_by       bigint,
  written_at       timestamptz NOT NULL DEFAULT now(),
  seq              bigint NOT NULL DEFAULT nextval('market_event_seq'),
  txid             xid8 NOT NULL DEFAULT pg_current_xact_id(),
  CONSTRAINT nifty_quotes_pkey PRIMARY KEY (observed_at, trading_day)
) PARTITION BY RANGE (trading_day);
CREATE INDEX nifty_quotes_by_day ON nifty_quotes (trading_day);
CREATE INDEX nifty_quotes_by_txid_seq ON nifty_quotes (txid, seq);

CREATE TABLE shortlist_snapshots (
  -- The checks keep the names migration 0001 gave them.
  shortlist_type  text NOT NULL
                  CONSTRAINT shortlist_snapshots_shortlist_type_check
                  CHECK (shortlist_type IN ('TOP_GAINERS', 'VOLUME_SHOCKERS')),
  scope           text NOT NULL
                  CONSTRAINT shortlist_snapshots_scope_check
                  CHECK (scope IN ('TOP_5', 'FULL')),
  observed_at     timestamptz NOT NULL,
  trading_day     date NOT NULL,
  entry_count     integer NOT NULL
                  CONSTRAINT shortlist_snapshots_entry_count_check
                  CHECK (entry_count >= 0),
  entries         bytea NOT NULL,
  written_by      bigint,
  written_at      timestamptz NOT NULL DEFAULT now(),
  seq             bigint NOT NULL DEFAULT nextval('market_event_seq'),
  txid            xid8 NOT NULL DEFAULT pg_current_xact_id(),
  CONSTRAINT shortlist_snapshots_pkey
    PRIMARY KEY (shortlist_type, scope, observed_at, trading_day)
) PARTITION BY RANGE (trading_day);
CREATE INDEX shortlist_snapshots_by_day_time
  ON shortlist_snapshots (trading_day, observed_at, shortlist_type COLLATE "C",
                          scope COLLATE "C");
CREATE INDEX shortlist_snapshots_by_txid_seq
  ON shortlist_snapshots (txid, seq);

-- An upsert that replaces a record moves it to its new transaction's place
-- (migration 0009). On the partitioned table, so every partition gets it.
CREATE TRIGGER stock_quotes_renumber BEFORE UPDATE ON stock_quotes
  FOR EACH ROW EXECUTE FUNCTION market_events_renumber();
CREATE TRIGGER nifty_quotes_renumber BEFORE UPDATE ON nifty_quotes
  FOR EACH ROW EXECUTE FUNCTION market_events_renumber();
CREATE TRIGGER shortlist_snapshots_renumber BEFORE UPDATE
  ON shortlist_snapshots FOR EACH ROW
  EXECUTE FUNCTION market_events_renumber();

-- Rows of a month without a partition. The maintenance moves them into
-- their month's partition once it creates it (mdc_ensure_partitions); only
-- trading days outside the supported years 1900-2199 stay here for good
-- (the view out_of_range_instants lists them).
CREATE TABLE stock_quotes_default PARTITION OF stock_quotes DEFAULT;
CREATE TABLE nifty_quotes_default PARTITION OF nifty_quotes DEFAULT;
CREATE TABLE shortlist_snapshots_default
  PARTITION OF shortlist_snapshots DEFAULT;

-- The partitioned market tables, for the functions below.
CREATE FUNCTION mdc_partitioned_tables() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['stock_quotes', 'nifty_quotes', 'shortlist_snapshots']
$$;

-- The partitions of `parent` other than DEFAULT, with their range
-- [lower, upper). datestyle ISO: the bounds are read back from their text.
CREATE FUNCTION mdc_month_partitions(parent regclass)
RETURNS TABLE (partition regclass, lower date, upper date)
LANGUAGE sql STABLE SET datestyle = 'ISO, YMD' AS $$
  SELECT c.oid::regclass,
         substring(pg_get_expr(c.relpartbound, c.oid)
                   FROM 'FROM \(''([0-9-]+)''\)')::date,
         substring(pg_get_expr(c.relpartbound, c.oid)
                   FROM 'TO \(''([0-9-]+)''\)')::date
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = parent
     AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
$$;

-- Creates the partition of `parent` for the month holding `day`, named
-- <parent>_pYYYY_MM, unless it exists; the month's rows in the DEFAULT
-- partition move into it first (ATTACH refuses while DEFAULT holds any).
-- ATTACH takes a lighter lock on `parent` than CREATE TABLE ... PARTITION
-- OF: reads and writes of other months go on meanwhile. Returns whether it
-- created the partition.
CREATE FUNCTION mdc_create_month_partition(parent text, day date)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', day)::date;
  next_first_day date := (date_trunc('month', day) + interval '1 month')::date;
  name text := format('%s_p%s', parent, to_char(first_day, 'YYYY_MM'));
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN false;
  END IF;
  -- No write of `parent` may be under way meanwhile: a statement picks its
  -- partition when it starts, so one that chose DEFAULT for this month
  -- before the attach would fail its partition check after it (SQLSTATE
  -- 23514), and a row it put in DEFAULT between the move and the attach
  -- would make the attach fail. Writers and readers of `parent` wait for
  -- this short transaction (one table at a time, at most lock_timeout for
  -- the lock itself); statements that start after it plan with the new
  -- partition.
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', parent);
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS '
                 'INCLUDING CONSTRAINTS)', name, parent);
  EXECUTE format('WITH moved AS (DELETE FROM %I WHERE trading_day >= %L '
                 'AND trading_day < %L RETURNING *) '
                 'INSERT INTO %I SELECT * FROM moved',
                 parent || '_default', first_day, next_first_day, name);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) '
                 'TO (%L)', parent, name, first_day, next_first_day);
  RETURN true;
END $$;

-- The months market table `parent` should have a partition for and has
-- not: the current month (Asia/Kolkata) to `months_ahead` months after it,
-- and the months found in its DEFAULT partition (years 1900-2199), so that
-- what landed there moves to its partition. Ascending.
CREATE FUNCTION mdc_months_to_partition(months_ahead integer, parent text)
RETURNS SETOF date
LANGUAGE plpgsql AS $$
DECLARE
  this_month date :=
    date_trunc('month', now() AT TIME ZONE 'Asia/Kolkata')::date;
BEGIN
  IF months_ahead IS NULL OR months_ahead < 0 THEN
    RAISE EXCEPTION 'months_ahead must be 0 or more, not %', months_ahead;
  END IF;
  IF NOT parent = ANY (mdc_partitioned_tables()) THEN
    RAISE EXCEPTION '% is not a partitioned market table', parent;
  END IF;
  RETURN QUERY EXECUTE format(
      'SELECT m FROM ('
      '  SELECT (%L::date + make_interval(months => n))::date AS m '
      '    FROM generate_series(0, %s) AS n '
      '  UNION SELECT DISTINCT date_trunc(''month'', trading_day)::date '
      '    FROM %I WHERE trading_day >= ''1900-01-01'' '
      '    AND trading_day < ''2200-01-01'') months '
      'WHERE to_regclass(format(''%%s_p%%s'', %L, to_char(m, ''YYYY_MM''))) '
      '  IS NULL ORDER BY m',
      this_month, months_ahead, parent || '_default', parent);
END $$;

-- Creates the partitions mdc_months_to_partition names, in one
-- transaction (the migration's). The servers' maintenance instead adds one
-- month per transaction (storage/partition_repository.cc), so that the
-- table lock of each addition is held only for that month. Several callers
-- may run at once: they take turns. Returns the partitions created.
CREATE FUNCTION mdc_ensure_partitions(months_ahead integer, parent text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month date;
  created integer := 0;
BEGIN
  -- 4242004: any constant unique to mdc (4242001 is the migrations' lock).
  PERFORM pg_advisory_xact_lock(4242004);
  FOR month IN SELECT m FROM mdc_months_to_partition(months_ahead, parent) m
  LOOP
    IF mdc_create_month_partition(parent, month) THEN
      created := created + 1;
    END IF;
  END LOOP;
  RETURN created;
END $$;

-- Deletes every row of `parent` whose trading day is before `bound`:
-- partitions whose whole month is before it are dropped (their rows
-- counted first), the rest (the month holding `bound`, the DEFAULT
-- partition) deleted row by row. Returns the rows removed. Dropping a
-- partition locks `parent` briefly: callers that must not wait for long
-- set lock_timeout.
CREATE FUNCTION mdc_purge_before(parent regclass, bound date) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  part regclass;
  rows_in_part bigint;
  removed bigint := 0;
BEGIN
  -- Taking turns with mdc_ensure_partitions and other purges (several
  -- servers apply the retention): the partitions are listed after the wait.
  PERFORM pg_advisory_xact_lock(4242004);
  FOR part IN SELECT p.partition FROM mdc_month_partitions(parent) p
               WHERE p.upper <= bound ORDER BY p.lower LOOP
    EXECUTE format('SELECT count(*) FROM %s', part) INTO rows_in_part;
    EXECUTE format('DROP TABLE %s', part);
    removed := removed + rows_in_part;
  END LOOP;
  EXECUTE format('DELETE FROM %s WHERE trading_day < %L', parent, bound);
  GET DIAGNOSTICS rows_in_part = ROW_COUNT;
  RETURN removed + rows_in_part;
END $$;

-- Empties the partitions of `parent` whose every day is in `days` (TRUNCATE,
-- not a row-by-row DELETE) and returns the rows they held. The partitions
-- stay: the month may still be written. The caller deletes the other days.
CREATE FUNCTION mdc_truncate_whole_months(parent regclass, days date[])
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  part regclass;
  rows_in_part bigint;
  removed bigint := 0;
BEGIN
  FOR part IN
      SELECT p.partition FROM mdc_month_partitions(parent) p
       WHERE (SELECT count(DISTINCT u.d) FROM unnest(days) AS u(d)
               WHERE u.d >= p.lower AND u.d < p.upper) = p.upper - p.lower
       ORDER BY p.lower LOOP
    EXECUTE format('SELECT count(*) FROM %s', part) INTO rows_in_part;
    EXECUTE format('TRUNCATE %s', part);
    removed := removed + rows_in_part;
  END LOOP;
  RETURN removed;
END $$;

-- A partition for every month holding data (and the months ahead), then
-- the rows, as they are.
SELECT mdc_create_month_partition('stock_quotes', month)
  FROM (SELECT DISTINCT date_trunc('month', trading_day)::date AS month
          FROM stock_quotes_unpartitioned
         WHERE trading_day >= '1900-01-01' AND trading_day < '2200-01-01')
       AS months;
SELECT mdc_create_month_partition('nifty_quotes', month)
  FROM (SELECT DISTINCT date_trunc('month', trading_day)::date AS month
          FROM nifty_quotes_unpartitioned
         WHERE trading_day >= '1900-01-01' AND trading_day < '2200-01-01')
       AS months;
SELECT mdc_create_month_partition('shortlist_snapshots', month)
  FROM (SELECT DISTINCT date_trunc('month', trading_day)::date AS month
          FROM shortlist_snapshots_unpartitioned
         WHERE trading_day >= '1900-01-01' AND trading_day < '2200-01-01')
       AS months;
SELECT mdc_ensure_partitions(3, t) FROM unnest(mdc_partitioned_tables()) AS t;

INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price,
                          volume, quote_data, written_by, written_at, seq,
                          txid)
SELECT nse_symbol, observed_at, trading_day, last_price, volume, quote_data,
       written_by, written_at, seq, txid
  FROM stock_quotes_unpartitioned;
INSERT INTO nifty_quotes (observed_at, trading_day, last_price, volume,
                          day_change_perc, quote_data, written_by, written_at,
                          seq, txid)
SELECT observed_at, trading_day, last_price, volume, day_change_perc,
       quote_data, written_by, written_at, seq, txid
  FROM nifty_quotes_unpartitioned;
INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at,
                                 trading_day, entry_count, entries,
                                 written_by, written_at, seq, txid)
SELECT shortlist_type, scope, observed_at, trading_day, entry_count, entries,
       written_by, written_at, seq, txid
  FROM shortlist_snapshots_unpartitioned;

DROP TABLE stock_quotes_unpartitioned;
DROP TABLE nifty_quotes_unpartitioned;
DROP TABLE shortlist_snapshots_unpartitioned;

-- Fresh planner statistics for the new partitions before the first reads.
ANALYZE stock_quotes, nifty_quotes, shortlist_snapshots;

-- As in migration 0006.
CREATE VIEW out_of_range_instants AS
SELECT 'shortlist_snapshots'::text AS table_name,
       concat_ws(' ', shortlist_type, scope) AS row_key,
       'observed_at'::text AS column_name, observed_at AS instant, trading_day
  FROM shortlist_snapshots
 WHERE observed_at < '1900-01-01 00:00:00+00'
    OR observed_at >= '2200-01-01 00:00:00+00'
UNION ALL
SELECT 'stock_quotes', nse_symbol, 'observed_at', observed_at, trading_day
  FROM stock_quotes
 WHERE observed_at < '1900-01-01 00:00:00+00'
    OR observed_at >= '2200-01-01 00:00:00+00'
UNION ALL
SELECT 'nifty_quotes', 'NIFTY', 'observed_at', observed_at, trading_day
  FROM nifty_quotes
 WHERE observed_at < '1900-01-01 00:00:00+00'
    OR observed_at >= '2200-01-01 00:00:00+00'
UNION ALL
SELECT 'runs', id::text, 'start_at', start_at, NULL::date
  FROM runs
 WHERE start_at < '1900-01-01 00:00:00+00'
    OR start_at >= '2200-01-01 00:00:00+00'
UNION ALL
SELECT 'runs', id::text, 'end_at', end_at, NULL::date
  FROM runs
 WHERE end_at < '1900-01-01 00:00:00+00'
    OR end_at >= '2200-01-01 00:00:00+00'
UNION ALL
SELECT 'orders', id::text, 'ordered_at', ordered_at, NULL::date
  FROM orders
 WHERE ordered_at < '1900-01-01 00:00:00+00'
    OR ordered_at >= '2200-01-01 00:00:00+00';

COMMENT ON VIEW out_of_range_instants IS
  'Rows whose instant is outside the supported range [1900-01-01T00:00:00Z, '
  '2200-01-01T00:00:00Z): written before the range was enforced. '
  'row_key with the instant identifies the row (shortlist: type and scope; '
  'quotes: symbol; runs and orders: id).';

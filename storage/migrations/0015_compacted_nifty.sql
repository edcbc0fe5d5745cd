-- Compacted history of the NIFTY quotes (docs/architecture.md, "Compacted
-- history"): as migration 0013 did for the stock quotes, the NIFTY quotes
-- of closed trading days move out of the row store (nifty_quotes) into
-- batches of up to 1,000 quotes of one day, their columns encoded and
-- compressed by the server (domain/nifty_batch_codec.h). One series: a
-- batch is keyed by its day and its first instant.
CREATE TABLE nifty_quote_batches (
  trading_day        date NOT NULL,
  -- The instants of the batch's first and last quote: a read opens only the
  -- batches whose range meets the one it asks for.
  first_observed_at  timestamptz NOT NULL,
  last_observed_at   timestamptz NOT NULL,
  row_count          integer NOT NULL CHECK (row_count BETWEEN 1 AND 1000),
  -- The stream order of the batch's quotes (min and max of seq).
  min_seq            bigint NOT NULL,
  max_seq            bigint NOT NULL,
  -- Already compressed: EXTERNAL keeps PostgreSQL from trying again.
  columns            bytea NOT NULL,
  compacted_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (first_observed_at <= last_observed_at),
  PRIMARY KEY (trading_day, first_observed_at)
);
ALTER TABLE nifty_quote_batches ALTER COLUMN columns SET STORAGE EXTERNAL;

-- The row store under another name, for the reads that see both stores
-- (storage/compacted_nifty.h shadows `nifty_quotes` with a WITH query).
CREATE VIEW nifty_quote_rows AS SELECT * FROM nifty_quotes;

-- Deleting days and the retention purge remove the compacted NIFTY quotes
-- of those days too: the answer counts the quotes the batches held.
CREATE OR REPLACE FUNCTION mdc_purge_before(parent regclass, bound date)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  part regclass;
  rows_in_part bigint;
  removed bigint := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(4242004);
  FOR part IN SELECT p.partition FROM mdc_month_partitions(parent) p
               WHERE p.upper <= bound ORDER BY p.lower LOOP
    EXECUTE format('SELECT count(*) FROM %s', part) INTO rows_in_part;
    EXECUTE format('DROP TABLE %s', part);
    removed := removed + rows_in_part;
  END LOOP;
  EXECUTE format('DELETE FROM %s WHERE trading_day < %L', parent, bound);
  GET DIAGNOSTICS rows_in_part = ROW_COUNT;
  removed := removed + rows_in_part;
  IF parent = 'stock_quotes'::regclass THEN
    WITH gone AS (DELETE FROM stock_quote_batches WHERE trading_day < bound
                  RETURNING row_count)
    SELECT coalesce(sum(row_count), 0) INTO rows_in_part FROM gone;
    removed := removed + rows_in_part;
  ELSIF parent = 'nifty_quotes'::regclass THEN
    WITH gone AS (DELETE FROM nifty_quote_batches WHERE trading_day < bound
                  RETURNING row_count)
    SELECT coalesce(sum(row_count), 0) INTO rows_in_part FROM gone;
    removed := removed + rows_in_part;
  END IF;
  RETURN removed;
END $$;

-- Migration 0013's partition rewrite for any of the partitioned tables:
-- moves the rows of `days` (all in the month partition `part` of `parent`)
-- out of the row store without leaving dead rows, by copying the
-- partition's other rows into a fresh table that takes its place. The
-- caller holds `part` in SHARE mode since before it read the rows it
-- compacted. Returns the rows that stayed.
CREATE FUNCTION mdc_rewrite_partition_without(parent regclass, part regclass,
                                              days date[])
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  bounds record;
  name text;
  fresh text;
  kept bigint;
BEGIN
  SELECT p.lower, p.upper INTO bounds FROM mdc_month_partitions(parent) p
   WHERE p.partition = part;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a month partition of %', part, parent;
  END IF;
  SELECT c.relname INTO name FROM pg_class c WHERE c.oid = part;
  fresh := name || '_compacting';
  EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS '
                 'INCLUDING CONSTRAINTS)', fresh, parent);
  EXECUTE format('INSERT INTO %I SELECT * FROM %s '
                 'WHERE NOT (trading_day = ANY (%L::date[]))',
                 fresh, part, days);
  GET DIAGNOSTICS kept = ROW_COUNT;
  -- The attach skips its scan of the rows when a CHECK proves the range.
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (trading_day >= %L '
                 'AND trading_day < %L)', fresh, fresh || '_range',
                 bounds.lower, bounds.upper);
  -- Writers and readers of `parent` wait for the rest of this transaction:
  -- the swap itself, and building the fresh table's indexes.
  EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', parent);
  EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, part);
  EXECUTE format('DROP TABLE %s', part);
  EXECUTE format('ALTER TABLE %I RENAME TO %I', fresh, name);
  EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I '
                 'FOR VALUES FROM (%L) TO (%L)', parent, name, bounds.lower,
                 bounds.upper);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', name,
                 fresh || '_range');
  RETURN kept;
END $$;

-- The stock quotes' name for it, as storage/compaction_repository.cc calls it.
CREATE OR REPLACE FUNCTION mdc_rewrite_quote_partition_without(part regclass,
                                                               days date[])
RETURNS bigint
LANGUAGE sql AS $$
  SELECT mdc_rewrite_partition_without('stock_quotes', part, days)
$$;

-- The storage report (migration 0013) with NIFTY's compacted form: per
-- kind and month, the records and the bytes on disk of each form. Each
-- batches table's bytes (heap, index, TOAST) are shared among its months by
-- the size of their encoded columns.
CREATE OR REPLACE FUNCTION mdc_storage_report()
RETURNS TABLE (kind text, month text, form text, rows bigint, bytes bigint)
LANGUAGE plpgsql STABLE SET datestyle = 'ISO, YMD' AS $$
DECLARE
  t record;
  p record;
  n bigint;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('stock_quotes', 'quotes'),
                                 ('nifty_quotes', 'nifty'),
                                 ('shortlist_snapshots', 'shortlists'))
                         AS v(tbl, k) LOOP
    FOR p IN SELECT m.partition, m.lower
               FROM mdc_month_partitions(t.tbl::regclass) m LOOP
      EXECUTE format('SELECT count(*) FROM %s', p.partition) INTO n;
      kind := t.k;
      month := to_char(p.lower, 'YYYY-MM');
      form := 'rows';
      rows := n;
      bytes := pg_total_relation_size(p.partition);
      RETURN NEXT;
    END LOOP;
    EXECUTE format('SELECT count(*) FROM %I', t.tbl || '_default') INTO n;
    IF n > 0 THEN
      kind := t.k;
      month := 'default';
      form := 'rows';
      rows := n;
      bytes := pg_total_relation_size((t.tbl || '_default')::regclass);
      RETURN NEXT;
    END IF;
  END LOOP;
  FOR t IN SELECT * FROM (VALUES ('stock_quote_batches', 'quotes'),
                                 ('nifty_quote_batches', 'nifty'))
                         AS v(tbl, k) LOOP
    RETURN QUERY EXECUTE format(
      'WITH per_month AS ('
      '  SELECT to_char(b.trading_day, ''YYYY-MM'') AS m,'
      '         sum(b.row_count)::int8 AS r,'
      '         sum(pg_column_size(b.columns))::numeric AS s'
      '    FROM %I b GROUP BY 1),'
      ' total AS (SELECT sum(s) AS s FROM per_month)'
      ' SELECT %L::text, per_month.m, ''compacted''::text, per_month.r,'
      '        round(pg_total_relation_size(%L) * per_month.s'
      '              / total.s)::int8'
      '   FROM per_month, total', t.tbl, t.k, t.tbl);
  END LOOP;
END $$;

-- The latest compaction of each day's stock quote batches at a glance: a
-- page of a compacted day read ahead is served only while it is unchanged
-- (storage/day_page_read_ahead.h); a delete of the day or a new compaction
-- of it changes it.
CREATE INDEX stock_quote_batches_by_day_compacted
  ON stock_quote_batches (trading_day, compacted_at);

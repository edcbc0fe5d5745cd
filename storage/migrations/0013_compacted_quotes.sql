-- Compacted history (docs/architecture.md, "Compacted history"): the stock
-- quotes of closed trading days, moved out of the row store (stock_quotes)
-- into batches of up to 1,000 quotes of one symbol and one day, their
-- columns encoded and compressed by the server (domain/quote_batch_codec.h).
-- Reads decode the batches that overlap what they ask for and merge them
-- with the row store, where a later write to a compacted day lands; the next
-- compaction of that day folds it in.
CREATE TABLE stock_quote_batches (
  nse_symbol         text NOT NULL,
  trading_day        date NOT NULL,
  -- The instants of the batch's first and last quote: a read opens only the
  -- batches whose range meets the one it asks for.
  first_observed_at  timestamptz NOT NULL,
  last_observed_at   timestamptz NOT NULL,
  row_count          integer NOT NULL CHECK (row_count BETWEEN 1 AND 1000),
  -- The stream order of the batch's quotes (min and max of seq).
  min_seq            bigint NOT NULL,
  max_seq            bigint NOT NULL,
  -- Already compressed: EXTERNAL keeps PostgreSQL from trying again (TOAST
  -- stores it out of line, uncompressed).
  columns            bytea NOT NULL,
  compacted_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (first_observed_at <= last_observed_at),
  PRIMARY KEY (nse_symbol, trading_day, first_observed_at)
);
ALTER TABLE stock_quote_batches ALTER COLUMN columns SET STORAGE EXTERNAL;
CREATE INDEX stock_quote_batches_by_day
  ON stock_quote_batches (trading_day, nse_symbol COLLATE "C");

-- The row store under another name, for the reads that see both stores:
-- they name the union of this view and the decoded batches `stock_quotes`
-- (a WITH query, storage/compacted_reads.h), inside which the table itself
-- must be named otherwise. A plain view: the planner inlines it, so the
-- reads keep their partition pruning and index paths.
CREATE VIEW stock_quote_rows AS SELECT * FROM stock_quotes;

-- Deleting days and the retention purge remove the compacted quotes of
-- those days too (migration 0010's functions, now with the batches): the
-- answer counts the quotes the batches held.
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
  END IF;
  RETURN removed;
END $$;

-- Moves the stock quotes of `days` (all in the month partition `part` of
-- stock_quotes) out of the row store without leaving dead rows: the
-- partition's other rows are copied into a fresh table that takes its
-- place (detach, drop, attach), so the space of the moved rows goes back to
-- the file system at commit. The caller holds `part` in SHARE mode since
-- before it read the rows it compacted, so no write to the month lands in
-- between. Returns the rows that stayed.
CREATE FUNCTION mdc_rewrite_quote_partition_without(part regclass,
                                                    days date[])
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  bounds record;
  name text;
  fresh text;
  kept bigint;
BEGIN
  SELECT p.lower, p.upper INTO bounds FROM mdc_month_partitions('stock_quotes') p
   WHERE p.partition = part;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a month partition of stock_quotes', part;
  END IF;
  SELECT c.relname INTO name FROM pg_class c WHERE c.oid = part;
  fresh := name || '_compacting';
  EXECUTE format('CREATE TABLE %I (LIKE stock_quotes INCLUDING DEFAULTS '
                 'INCLUDING CONSTRAINTS)', fresh);
  EXECUTE format('INSERT INTO %I SELECT * FROM %s '
                 'WHERE NOT (trading_day = ANY (%L::date[]))',
                 fresh, part, days);
  GET DIAGNOSTICS kept = ROW_COUNT;
  -- The attach skips its scan of the rows when a CHECK proves the range.
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (trading_day >= %L '
                 'AND trading_day < %L)', fresh, fresh || '_range',
                 bounds.lower, bounds.upper);
  -- Writers and readers of stock_quotes wait for the rest of this
  -- transaction: the swap itself, and building the fresh table's indexes.
  LOCK TABLE stock_quotes IN ACCESS EXCLUSIVE MODE;
  EXECUTE format('ALTER TABLE stock_quotes DETACH PARTITION %s', part);
  EXECUTE format('DROP TABLE %s', part);
  EXECUTE format('ALTER TABLE %I RENAME TO %I', fresh, name);
  EXECUTE format('ALTER TABLE stock_quotes ATTACH PARTITION %I '
                 'FOR VALUES FROM (%L) TO (%L)', name, bounds.lower,
                 bounds.upper);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', name,
                 fresh || '_range');
  RETURN kept;
END $$;

-- The storage report (GetStorageReport; docs/operations.md, "Compacted
-- history"): per kind and month, the records and the bytes on disk of each
-- form. Row-wise: each month partition (and a DEFAULT partition holding
-- rows) with its indexes and TOAST, its rows counted. Compacted: the stock
-- quote batches of the month, sharing the bytes of stock_quote_batches
-- (heap, index, TOAST) by the size of their encoded columns.
CREATE FUNCTION mdc_storage_report()
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
  RETURN QUERY
    WITH per_month AS (
      SELECT to_char(b.trading_day, 'YYYY-MM') AS m,
             sum(b.row_count)::int8 AS r,
             sum(pg_column_size(b.columns))::numeric AS s
        FROM stock_quote_batches b GROUP BY 1),
    total AS (SELECT sum(s) AS s FROM per_month)
    SELECT 'quotes'::text, per_month.m, 'compacted'::text, per_month.r,
           round(pg_total_relation_size('stock_quote_batches') * per_month.s
                 / total.s)::int8
      FROM per_month, total;
END $$;

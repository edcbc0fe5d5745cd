-- Instants outside the supported range [1900-01-01T00:00:00Z,
-- 2200-01-01T00:00:00Z) (domain/time.h) are refused on write since this
-- release. Rows stored before that are kept (reads clamp what a
-- google.protobuf.Timestamp cannot carry, so none fails a read) and listed
-- here for an admin to review and delete (docs/api.md section 9.5, "Data
-- by date"). A view: it costs nothing to keep and is empty once they are
-- gone; each branch is a range scan of the table's instant.
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

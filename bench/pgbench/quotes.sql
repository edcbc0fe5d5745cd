-- One Save Quote request of 300 quotes as the database sees it: the auth
-- lookup by token hash, then one statement upserting 300 rows (autocommit
-- each, as the server does). Variables: token_hash, payload (one quote's
-- bytea hex), dev, base.
\set t :base + random(0, 49999999)
SELECT id, username, role, created_at, last_seen_at, token_hash FROM developers WHERE token_hash = :token_hash::bytea;
INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data, written_by) SELECT 'SYM' || lpad(g::text, 4, '0'), to_timestamp(:t), '2030-01-01', 100 + g * 3.5, 100000 + g * 1000, :payload::bytea, :dev::bigint FROM generate_series(1, 300) AS g ON CONFLICT ON CONSTRAINT stock_quotes_pkey DO UPDATE SET last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, written_at = now();

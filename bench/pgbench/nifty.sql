-- One Save NIFTY Quote request as the database sees it: the auth lookup by
-- token hash, then the upsert of one quote (autocommit each, as the server
-- does). Variables: token_hash, payload (bytea hex), dev, base.
\set t :base + random(0, 49999999)
SELECT id, username, role, created_at, last_seen_at, token_hash FROM developers WHERE token_hash = :token_hash::bytea;
INSERT INTO nifty_quotes (observed_at, trading_day, last_price, volume, day_change_perc, quote_data, written_by) VALUES (to_timestamp(:t), '2030-01-01', 24350.55, 182736450, 0.42, :payload::bytea, :dev::bigint) ON CONFLICT ON CONSTRAINT nifty_quotes_pkey DO UPDATE SET last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, day_change_perc = EXCLUDED.day_change_perc, quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, written_at = now();

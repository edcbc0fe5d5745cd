-- One Save Shortlist request as the database sees it: the auth lookup by
-- token hash, then the upsert of one 20-entry snapshot (autocommit each, as
-- the server does). Variables: token_hash, payload (bytea hex), dev, base.
\set t :base + random(0, 49999999)
SELECT id, username, role, created_at, last_seen_at, token_hash FROM developers WHERE token_hash = :token_hash::bytea;
INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at, trading_day, entry_count, entries, written_by) VALUES ('TOP_GAINERS', 'TOP_5', to_timestamp(:t), '2030-01-01', 20, :payload::bytea, :dev::bigint) ON CONFLICT ON CONSTRAINT shortlist_snapshots_pkey DO UPDATE SET entry_count = EXCLUDED.entry_count, entries = EXCLUDED.entries, written_by = EXCLUDED.written_by, written_at = now();

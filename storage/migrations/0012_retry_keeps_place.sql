-- A write sent again with the same values keeps the record's place in the
-- streams (docs/api.md, "Watch semantics"). A collector sends a write again
-- whenever its answer was 503: after a failover (docs/deployment.md) or a
-- commit whose standby copy was unconfirmed (reason COMMIT_UNCONFIRMED) the
-- first attempt may in fact have committed. Until now its upsert gave the
-- record a new place (migration 0009), so live watches received it twice.
-- Now only an update that changes what the record says (anything but who
-- wrote it, when, and its place) moves it; the bookkeeping columns are
-- still updated.
--
-- Only upserts that hit an existing record run this trigger; new records
-- take their place from the column defaults as before.
CREATE OR REPLACE FUNCTION market_events_renumber() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (to_jsonb(NEW) - '{written_by,written_at,txid,seq}'::text[])
     IS DISTINCT FROM
     (to_jsonb(OLD) - '{written_by,written_at,txid,seq}'::text[]) THEN
    NEW.txid := pg_current_xact_id();
    NEW.seq := nextval('market_event_seq');
  END IF;
  RETURN NEW;
END $$;

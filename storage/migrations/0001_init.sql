-- The initial schema of mdc. Instants are timestamptz (UTC); every market
-- record also keeps its trading day (the Asia/Kolkata calendar date, computed
-- by the server) so per-day reads and deletes use an index, and who wrote it
-- and when.

CREATE TABLE developers (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username      text NOT NULL UNIQUE
                CHECK (username ~ '^[A-Za-z0-9_.-]{1,64}$'),
  role          text NOT NULL CHECK (role IN ('developer', 'admin')),
  -- SHA-256 of the bearer token; the token itself is never stored.
  token_hash    bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz
);

-- One shortlist snapshot per (type, scope, instant). The ranked entries are
-- stored as one serialized mdc.v1.Shortlist message: they are always read
-- and written whole, and the analytics run over them in the server.
CREATE TABLE shortlist_snapshots (
  shortlist_type  text NOT NULL
                  CHECK (shortlist_type IN ('TOP_GAINERS', 'VOLUME_SHOCKERS')),
  scope           text NOT NULL CHECK (scope IN ('TOP_5', 'FULL')),
  observed_at     timestamptz NOT NULL,
  trading_day     date NOT NULL,
  entry_count     integer NOT NULL CHECK (entry_count >= 0),
  entries         bytea NOT NULL,
  written_by      bigint REFERENCES developers (id) ON DELETE SET NULL,
  written_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shortlist_type, scope, observed_at)
);
CREATE INDEX shortlist_snapshots_by_day ON shortlist_snapshots (trading_day);

-- Quotes keep the fields candles and outcomes compute with as columns, and
-- the whole quote as a serialized mdc.v1.QuoteData message.
CREATE TABLE stock_quotes (
  nse_symbol   text NOT NULL,
  observed_at  timestamptz NOT NULL,
  trading_day  date NOT NULL,
  last_price   double precision,
  volume       double precision,
  quote_data   bytea NOT NULL,
  written_by   bigint REFERENCES developers (id) ON DELETE SET NULL,
  written_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (nse_symbol, observed_at)
);
CREATE INDEX stock_quotes_by_day ON stock_quotes (trading_day);

CREATE TABLE nifty_quotes (
  observed_at      timestamptz PRIMARY KEY,
  trading_day      date NOT NULL,
  last_price       double precision,
  volume           double precision,
  day_change_perc  double precision NOT NULL,
  quote_data       bytea NOT NULL,
  written_by       bigint REFERENCES developers (id) ON DELETE SET NULL,
  written_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nifty_quotes_by_day ON nifty_quotes (trading_day);

-- Exchange holidays; with both session times set, a special session on a
-- day that is normally closed (Muhurat trading).
CREATE TABLE holidays (
  holiday_date   date PRIMARY KEY,
  name           text NOT NULL DEFAULT '',
  session_open   time,
  session_close  time,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((session_open IS NULL) = (session_close IS NULL)),
  CHECK (session_open IS NULL OR session_open < session_close)
);

CREATE TABLE runs (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  developer_id  bigint NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
  name          text NOT NULL DEFAULT '',
  tags          text[] NOT NULL DEFAULT '{}',
  start_at      timestamptz NOT NULL,
  end_at        timestamptz NOT NULL,
  completed     boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (start_at <= end_at)
);
CREATE INDEX runs_by_owner ON runs (developer_id, created_at DESC, id DESC);

CREATE TABLE orders (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id             bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  nse_symbol         text NOT NULL,
  entry_price        double precision NOT NULL CHECK (entry_price > 0),
  stop_loss_price    double precision NOT NULL CHECK (stop_loss_price > 0),
  take_profit_price  double precision NOT NULL,
  ordered_at         timestamptz NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (stop_loss_price < entry_price AND entry_price < take_profit_price)
);
CREATE INDEX orders_by_run ON orders (run_id, ordered_at, id);

-- Broker credentials (one row), encrypted by the server with MDC_SECRET_KEY.
CREATE TABLE broker_credentials (
  id                 boolean PRIMARY KEY DEFAULT true CHECK (id),
  api_key_sealed     bytea NOT NULL,
  api_secret_sealed  bytea NOT NULL,
  updated_at         timestamptz NOT NULL DEFAULT now()
);

-- The broker access token the service holds (one row).
CREATE TABLE broker_tokens (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  access_token  text NOT NULL,
  expires_at    timestamptz NOT NULL,
  fetched_at    timestamptz NOT NULL DEFAULT now()
);

-- The security master and corporate actions (docs/api.md, "Instruments
-- and corporate actions"; docs/architecture.md, "Instruments").
--
-- An instrument is an ISIN; its NSE symbol changes over time, so symbols
-- are periods: each row is valid from `valid_from` until the next row of
-- the same ISIN (the last is open). Market records keep the symbol they
-- were stored under; reads join through this table.
CREATE TABLE instruments (
  isin           text PRIMARY KEY
                 CHECK (isin ~ '^[A-Z]{2}[A-Z0-9]{9}[0-9]$'),
  name           text NOT NULL,
  series         text NOT NULL,
  listing_date   date,
  paid_up_value  double precision,
  market_lot     integer,
  face_value     double precision
);

CREATE TABLE instrument_symbols (
  isin        text NOT NULL REFERENCES instruments (isin) ON DELETE CASCADE,
  symbol      text NOT NULL,
  valid_from  date NOT NULL,
  PRIMARY KEY (isin, valid_from)
);
CREATE INDEX instrument_symbols_by_symbol
  ON instrument_symbols (symbol, valid_from);

-- Corporate actions, stored as the text gave them; their factors are
-- computed at read time (domain/corporate_actions.h), and adjusted reads
-- never rewrite stored prices. ratio_a/ratio_b: a:b of a bonus or rights
-- issue, old/new face value of a split or consolidation; amount: rupees a
-- share of a dividend, the price of a rights share. The description (the
-- part of PURPOSE read, or the admin's) tells two actions of one kind on
-- one day apart, and makes re-importing a file change nothing.
CREATE TABLE corporate_actions (
  isin         text NOT NULL REFERENCES instruments (isin) ON DELETE CASCADE,
  ex_date      date NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('split', 'bonus',
                                             'consolidation', 'dividend',
                                             'rights')),
  description  text NOT NULL,
  ratio_a      double precision NOT NULL DEFAULT 0,
  ratio_b      double precision NOT NULL DEFAULT 0,
  amount       double precision NOT NULL DEFAULT 0,
  -- The symbol the source named it under.
  symbol       text NOT NULL,
  PRIMARY KEY (isin, ex_date, kind, description)
);

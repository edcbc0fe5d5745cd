// Migration 0010 (partitioned history) on a database that an older release
// left at migration 0009 holding data: every row of the three market tables
// must be there afterwards with identical values (seq and txid included),
// each in its month's partition, and the upserts and reads must work on the
// new tables.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "domain/observations.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "storage/migrations.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

// Rows of months on both sides of several month ends (January to April
// 2025), updated rows (an UPDATE renumbers seq and sets txid, migration
// 0009) written in transactions of their own, and rows outside the
// supported years, which stay in the DEFAULT partition.
constexpr char kOldData[] = R"sql(
INSERT INTO developers (username, role, token_hash)
VALUES ('old_writer', 'developer', sha256('old token'));

INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price,
                          volume, quote_data, written_by)
SELECT 'SYM' || s, t, (t AT TIME ZONE 'Asia/Kolkata')::date, 100 + s,
       1000 * s,
       -- SYM2's are read back through the repository: an empty QuoteData.
       CASE WHEN s = 2 THEN '\x'::bytea ELSE decode(md5(s || t::text), 'hex')
       END,
       (SELECT id FROM developers WHERE username = 'old_writer')
  FROM generate_series(1, 12) AS s,
       generate_series('2025-01-30 03:45:00+00'::timestamptz,
                       '2025-04-02 10:00:00+00', interval '7 hours') AS t;
INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, quote_data)
VALUES ('POISON', '0001-01-01 00:00:00+00', '0001-01-01', '\x00'),
       ('POISON', '9999-12-31 23:00:00+00', '10000-01-01', '\x01');

INSERT INTO nifty_quotes (observed_at, trading_day, last_price, volume,
                          day_change_perc, quote_data)
SELECT t, (t AT TIME ZONE 'Asia/Kolkata')::date, 22000.5, NULL, -0.25,
       decode(md5(t::text), 'hex')
  FROM generate_series('2025-01-31 18:00:00+00'::timestamptz,
                       '2025-03-01 06:00:00+00', interval '90 minutes') AS t;

INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at,
                                 trading_day, entry_count, entries)
SELECT type, scope, t, (t AT TIME ZONE 'Asia/Kolkata')::date, 3,
       decode(md5(type || scope || t::text), 'hex')
  FROM unnest(ARRAY['TOP_GAINERS', 'VOLUME_SHOCKERS']) AS type,
       unnest(ARRAY['TOP_5', 'FULL']) AS scope,
       generate_series('2025-02-27 04:00:00+00'::timestamptz,
                       '2025-03-02 10:00:00+00', interval '5 hours') AS t;
)sql";

constexpr char kUpdates[] = R"sql(
UPDATE stock_quotes SET last_price = 1.5 WHERE nse_symbol = 'SYM3';
UPDATE nifty_quotes SET day_change_perc = 0.75
 WHERE observed_at < '2025-02-02 00:00:00+00';
UPDATE shortlist_snapshots SET entry_count = 1 WHERE scope = 'FULL';
)sql";

// Rows written at migration 0009: their txid is their transaction's.
constexpr char kNewerData[] = R"sql(
INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price,
                          quote_data)
SELECT 'NEWER', t, (t AT TIME ZONE 'Asia/Kolkata')::date, 5, '\x05'
  FROM generate_series('2025-03-30 04:00:00+00'::timestamptz,
                       '2025-04-01 04:00:00+00', interval '1 hour') AS t;
)sql";

// The embedded migrations up to the one whose name starts with `prefix`.
std::vector<Migration> MigrationsUpTo(const std::string& prefix) {
  std::vector<Migration> migrations;
  for (const Migration& migration : EmbeddedMigrations()) {
    migrations.push_back(migration);
    if (std::string(migration.name).rfind(prefix, 0) == 0) break;
  }
  return migrations;
}

// Every column of every row, in key order, as one text.
std::string Fingerprint(testing::TestDatabase& db, const std::string& table,
                        const std::string& order) {
  return db.Query("SELECT md5(string_agg(t::text, '|' ORDER BY " + order +
                  ")) || ' ' || count(*) FROM " + table + " t");
}

struct Fingerprints {
  std::string quotes, nifty, shortlists;
};

Fingerprints TakeFingerprints(testing::TestDatabase& db) {
  return {Fingerprint(db, "stock_quotes", "nse_symbol, observed_at"),
          Fingerprint(db, "nifty_quotes", "observed_at"),
          Fingerprint(db, "shortlist_snapshots",
                      "shortlist_type, scope, observed_at")};
}

TEST(PartitionMigrationTest, MovesEveryRowOverUnchanged) {
  // Data from before migration 0009 (txid 0 since) and after it.
  testing::TestDatabase db("0008_market_events.sql");
  db.Query(kOldData);
  auto at_0009 = ApplyMigrations(db.pool(), MigrationsUpTo("0009"));
  ASSERT_TRUE(at_0009.ok()) << at_0009.status();
  ASSERT_EQ(db.Query("SELECT max(name) FROM schema_migrations"),
            "0009_commit_horizon.sql");
  db.Query(kUpdates);
  db.Query(kNewerData);
  // The updates gave their rows a transaction's id: the copy must keep both
  // kinds, 0 and not.
  ASSERT_NE(db.Query("SELECT count(*) FROM stock_quotes WHERE txid <> '0'"),
            "0");
  ASSERT_NE(db.Query("SELECT count(*) FROM stock_quotes WHERE txid = '0'"),
            "0");
  const Fingerprints before = TakeFingerprints(db);
  const std::string last_seq =
      db.Query("SELECT last_value FROM market_event_seq");
  ASSERT_EQ(db.Query("SELECT count(DISTINCT date_trunc('month', trading_day)) "
                     "FROM stock_quotes WHERE nse_symbol = 'SYM1'"),
            "4");

  auto applied = ApplyMigrations(db.pool(), EmbeddedMigrations());
  ASSERT_TRUE(applied.ok()) << applied.status();
  ASSERT_FALSE(applied->empty());
  EXPECT_EQ(applied->front(), "0010_partitioned_history.sql");

  const Fingerprints after = TakeFingerprints(db);
  EXPECT_EQ(after.quotes, before.quotes);
  EXPECT_EQ(after.nifty, before.nifty);
  EXPECT_EQ(after.shortlists, before.shortlists);
  EXPECT_EQ(db.Query("SELECT last_value FROM market_event_seq"), last_seq);

  // Partitioned, each row in its month's partition; only the rows outside
  // the supported years in DEFAULT.
  for (const char* table :
       {"stock_quotes", "nifty_quotes", "shortlist_snapshots"}) {
    SCOPED_TRACE(table);
    const std::string t = table;
    EXPECT_EQ(
        db.Query("SELECT relkind FROM pg_class WHERE relname = '" + t + "'"),
        "p");
    EXPECT_EQ(db.Query("SELECT count(*) FROM " + t +
                       " WHERE tableoid::regclass::text <> '" + t +
                       "_p' || "
                       "to_char(trading_day, 'YYYY_MM') AND tableoid::regclass"
                       "::text <> '" +
                       t + "_default'"),
              "0");
  }
  EXPECT_EQ(db.Query("SELECT string_agg(DISTINCT tableoid::regclass::text, "
                     "',') FROM stock_quotes WHERE nse_symbol = 'SYM1'"),
            "stock_quotes_p2025_01,stock_quotes_p2025_02,"
            "stock_quotes_p2025_03,stock_quotes_p2025_04");
  EXPECT_EQ(db.Query("SELECT string_agg(tableoid::regclass::text, ',') FROM "
                     "stock_quotes WHERE nse_symbol = 'POISON'"),
            "stock_quotes_default,stock_quotes_default");
  // The view over the tables was recreated.
  EXPECT_EQ(db.Query("SELECT count(*) FROM out_of_range_instants"), "2");

  // Upserts and reads on the new tables: a replaced quote keeps one row,
  // takes the new values and a later place in the streams. The instant is
  // 31 January in UTC, 1 February in Asia/Kolkata: February's partition.
  Repositories repos(db.pool());
  const std::string hash = domain::HashToken(domain::GenerateToken());
  ASSERT_TRUE(repos.developers.Create("new_writer", "developer", hash).ok());
  domain::QuoteBatch batch;
  batch.observed_at = *domain::ParseInstant("2025-01-31T21:45:00", "UTC");
  ASSERT_EQ(db.Query("SELECT count(*) FROM stock_quotes WHERE observed_at = "
                     "'2025-01-31 21:45:00+00'"),
            "12");
  const std::string old_seq = db.Query(
      "SELECT seq FROM stock_quotes WHERE nse_symbol = 'SYM1' AND "
      "observed_at = '2025-01-31 21:45:00+00'");
  for (const char* symbol : {"SYM1", "NEW1"}) {
    v1::QuoteData quote;
    quote.set_status(v1::SUCCESS);
    quote.mutable_payload()->set_last_price(77.25);
    batch.quotes.push_back({symbol, quote});
  }
  absl::Notification answered;
  absl::Status written = absl::UnknownError("no answer");
  repos.quotes.UpsertBatch(batch, hash, [&](auto result) {
    written = result.status();
    answered.Notify();
  });
  answered.WaitForNotification();
  ASSERT_TRUE(written.ok()) << written;
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes WHERE observed_at = "
                     "'2025-01-31 21:45:00+00'"),
            "13");
  EXPECT_EQ(db.Query("SELECT last_price FROM stock_quotes WHERE nse_symbol = "
                     "'SYM1' AND observed_at = '2025-01-31 21:45:00+00'"),
            "77.25");
  EXPECT_GT(std::stoll(db.Query(
                "SELECT seq FROM stock_quotes WHERE nse_symbol = 'SYM1' AND "
                "observed_at = '2025-01-31 21:45:00+00'")),
            std::stoll(old_seq));
  EXPECT_EQ(db.Query("SELECT tableoid::regclass FROM stock_quotes WHERE "
                     "nse_symbol = 'NEW1'"),
            "stock_quotes_p2025_02");
  auto latest = repos.quotes.FindLatest(
      "SYM1", domain::DayStart(absl::CivilDay(2025, 2, 1)),
      *domain::ParseInstant("2025-02-01T00:00:00", "UTC"));
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->quote_data().payload().last_price(), 77.25);
  // A quote of the old data, read through the repository.
  auto old = repos.quotes.ListRange(
      "SYM2", *domain::ParseInstant("2025-03-31T00:00:00", "UTC"),
      *domain::ParseInstant("2025-04-03T00:00:00", "UTC"), std::nullopt, 100);
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(std::to_string(old->size()),
            db.Query("SELECT count(*) FROM stock_quotes WHERE nse_symbol = "
                     "'SYM2' AND observed_at >= '2025-03-31 00:00:00+00' AND "
                     "observed_at < '2025-04-03 00:00:00+00'"));
  EXPECT_GT(old->size(), 2u);
}

}  // namespace
}  // namespace mdc::storage

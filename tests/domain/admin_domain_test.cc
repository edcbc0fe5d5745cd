// Admin rules that need no server: developer ids and paging, last-seen
// throttling, maintenance script requests, years, broker credential
// values and the secret box.
#include <gtest/gtest.h>

#include <map>

#include "domain/admin_requests.h"
#include "domain/db_scripts.h"
#include "domain/developers.h"
#include "domain/field_errors.h"
#include "domain/secret_box.h"
#include "google/rpc/error_details.pb.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

// The fields a BadRequest payload names, in order.
std::vector<std::string> BadFields(const absl::Status& status) {
  return testing::ViolatedFields(status);
}

TEST(ParseDeveloperId, AcceptsPositiveDecimalsOnly) {
  EXPECT_EQ(*ParseDeveloperId("1"), 1);
  EXPECT_EQ(*ParseDeveloperId("9007199254740993"), 9007199254740993LL);
  for (const char* bad : {"", "0", "-1", "+1", "1.0", "abc", " 1", "1e3",
                          "99999999999999999999"}) {
    EXPECT_EQ(ParseDeveloperId(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(ResolvePageSize, DefaultMaxAndOutOfRange) {
  EXPECT_EQ(*ResolvePageSize(0), 100);
  EXPECT_EQ(*ResolvePageSize(1), 1);
  EXPECT_EQ(*ResolvePageSize(1000), 1000);
  EXPECT_FALSE(ResolvePageSize(1001).ok());
  EXPECT_FALSE(ResolvePageSize(-1).ok());
}

TEST(DeveloperPageToken, RoundTripsAndRefusesForgeries) {
  EXPECT_EQ(*DecodeDeveloperPageToken(""), 0);
  EXPECT_EQ(*DecodeDeveloperPageToken(EncodeDeveloperPageToken(42)), 42);
  EXPECT_NE(EncodeDeveloperPageToken(42), "42");  // opaque
  for (const char* bad : {"42", "!!!", "ZGV2ZWxvcGVycy1hZnRlcjp4"}) {
    EXPECT_EQ(DecodeDeveloperPageToken(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(LastSeenDue, AtMostOncePerMinute) {
  const absl::Time now = absl::FromUnixSeconds(1'750'000'000);
  EXPECT_TRUE(LastSeenDue(std::nullopt, now));
  EXPECT_FALSE(LastSeenDue(now, now));
  EXPECT_FALSE(LastSeenDue(now - absl::Seconds(59), now));
  EXPECT_TRUE(LastSeenDue(now - absl::Seconds(60), now));
  EXPECT_FALSE(LastSeenDue(now + absl::Seconds(30), now));  // skewed clock
}

TEST(PlanDbScript, KnownScripts) {
  auto analyze = PlanDbScript("analyze", true, {});
  ASSERT_TRUE(analyze.ok()) << analyze.status();
  EXPECT_EQ(analyze->script, DbScript::kAnalyze);
  EXPECT_TRUE(analyze->dry_run);
  auto purge = PlanDbScript("purge-before", false, {{"before", "2025-01-31"}});
  ASSERT_TRUE(purge.ok()) << purge.status();
  EXPECT_EQ(purge->script, DbScript::kPurgeBefore);
  EXPECT_EQ(purge->before, absl::CivilDay(2025, 1, 31));
  EXPECT_EQ(PlanDbScript("vacuum", false, {})->script, DbScript::kVacuum);
  EXPECT_EQ(PlanDbScript("dedupe-check", false, {})->script,
            DbScript::kDedupeCheck);
}

TEST(PlanDbScript, UnknownScriptListsTheValidOnes) {
  for (const char* name : {"", "drop-everything", "ANALYZE", "analyze; DROP"}) {
    auto plan = PlanDbScript(name, false, {});
    ASSERT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_EQ(BadFields(plan.status()), std::vector<std::string>{"script"});
    EXPECT_NE(plan.status().message().find(
                  "analyze, vacuum, purge-before, dedupe-check"),
              std::string::npos)
        << plan.status();
  }
}

TEST(PlanDbScript, ArgumentsAreCheckedPerScript) {
  auto missing = PlanDbScript("purge-before", true, {});
  EXPECT_EQ(BadFields(missing.status()),
            std::vector<std::string>{"args.before"});
  auto impossible =
      PlanDbScript("purge-before", true, {{"before", "2025-02-30"}});
  EXPECT_EQ(BadFields(impossible.status()),
            std::vector<std::string>{"args.before"});
  auto extra = PlanDbScript("analyze", false, {{"table", "developers"}});
  EXPECT_EQ(BadFields(extra.status()), std::vector<std::string>{"args.table"});
  auto both = PlanDbScript("purge-before", false,
                           {{"before", "2025-01-01"}, {"sql", "DROP"}});
  EXPECT_EQ(BadFields(both.status()), std::vector<std::string>{"args.sql"});
}

TEST(ResolveYear, DefaultsToTheKolkataYearAndChecksRange) {
  // 2025-12-31T20:00Z is already 2026-01-01 in Asia/Kolkata.
  const absl::Time new_year_ist = absl::FromCivil(
      absl::CivilSecond(2025, 12, 31, 20, 0, 0), absl::UTCTimeZone());
  EXPECT_EQ(*ResolveYear(0, new_year_ist), 2026);
  EXPECT_EQ(*ResolveYear(2024, new_year_ist), 2024);
  for (int64_t bad : {-1, 1, 1899, 2201, 99999}) {
    auto year = ResolveYear(bad, new_year_ist);
    EXPECT_EQ(BadFields(year.status()), std::vector<std::string>{"year"})
        << bad;
  }
}

TEST(CheckBrokerCredential, Rules) {
  EXPECT_TRUE(CheckBrokerCredential("abc-DEF_123/+=").ok());
  EXPECT_FALSE(CheckBrokerCredential("").ok());
  EXPECT_FALSE(CheckBrokerCredential("has space").ok());
  EXPECT_FALSE(CheckBrokerCredential("line\nbreak").ok());
  EXPECT_FALSE(CheckBrokerCredential(std::string(4097, 'a')).ok());
}

constexpr char kHexKey[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

TEST(SecretBox, KeyFormats) {
  EXPECT_TRUE(SecretBox::FromKeyText(kHexKey).ok());
  // The same 32 bytes in base64, standard and URL-safe, padded or not.
  EXPECT_TRUE(
      SecretBox::FromKeyText("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
          .ok());
  EXPECT_TRUE(
      SecretBox::FromKeyText("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
          .ok());
  for (const char* bad : {"", "short", "00010203", "not base64 at all !!",
                          "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd"}) {
    auto box = SecretBox::FromKeyText(bad);
    ASSERT_EQ(box.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  auto refused = SecretBox::FromKeyText("my-secret-value-that-is-wrong");
  EXPECT_EQ(refused.status().message().find("my-secret-value"),
            std::string::npos);
}

TEST(SecretBox, SealsAndOpens) {
  auto box = *SecretBox::FromKeyText(kHexKey);
  const std::string sealed = box.Seal("api-key-123", "ctx");
  EXPECT_EQ(sealed.find("api-key-123"), std::string::npos);
  EXPECT_EQ(*box.Open(sealed, "ctx"), "api-key-123");
  // Fresh nonce each time: the same plaintext seals differently.
  EXPECT_NE(box.Seal("api-key-123", "ctx"), sealed);
}

TEST(SecretBox, RefusesTamperingOtherKeysAndOtherContexts) {
  auto box = *SecretBox::FromKeyText(kHexKey);
  const std::string sealed = box.Seal("secret", "column a");
  EXPECT_EQ(box.Open(sealed, "column b").status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto other = *SecretBox::FromKeyText(std::string(64, 'f'));
  EXPECT_FALSE(other.Open(sealed, "column a").ok());
  for (size_t i = 0; i < sealed.size(); ++i) {
    std::string tampered = sealed;
    tampered[i] ^= 0x01;
    EXPECT_FALSE(box.Open(tampered, "column a").ok()) << "byte " << i;
  }
  EXPECT_FALSE(box.Open("", "column a").ok());
  EXPECT_FALSE(box.Open(sealed.substr(0, 20), "column a").ok());
}

}  // namespace
}  // namespace mdc::domain

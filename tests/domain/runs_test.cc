#include "domain/runs.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domain/sign_in.h"

namespace mdc::domain {
namespace {

google::protobuf::RepeatedPtrField<std::string> Tags(
    const std::vector<std::string>& tags) {
  return google::protobuf::RepeatedPtrField<std::string>(tags.begin(),
                                                         tags.end());
}

// The field names of the violations `errors` recorded.
std::string Fields(const FieldErrors& errors) {
  return std::string(errors.ToStatus().message());
}

TEST(NormalizeTags, TrimsDeduplicatesAndSorts) {
  FieldErrors errors;
  const auto tags = NormalizeTags(
      Tags({" zeta", "alpha ", "Beta", "alpha", "x_y-1"}), "tags", errors);
  EXPECT_TRUE(errors.empty()) << Fields(errors);
  EXPECT_EQ(tags, (std::vector<std::string>{"Beta", "alpha", "x_y-1", "zeta"}));
}

TEST(NormalizeTags, EmptyListIsFine) {
  FieldErrors errors;
  EXPECT_TRUE(NormalizeTags(Tags({}), "tags", errors).empty());
  EXPECT_TRUE(errors.empty());
}

TEST(NormalizeTags, FiftyCharactersAllowedFiftyOneNot) {
  FieldErrors ok;
  NormalizeTags(Tags({std::string(50, 'a')}), "tags", ok);
  EXPECT_TRUE(ok.empty());
  FieldErrors errors;
  NormalizeTags(Tags({"fine", std::string(51, 'a')}), "tags", errors);
  EXPECT_EQ(Fields(errors),
            "tags[1]: a tag has at most 50 characters; this one has 51");
}

TEST(NormalizeTags, InnerSpacesAndOtherCharactersAreRejected) {
  FieldErrors errors;
  NormalizeTags(Tags({"two words", "dot.ted", "ok"}), "tags", errors);
  const std::string message = Fields(errors);
  EXPECT_NE(message.find("tags[0]: a tag may contain only letters"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("tags[1]:"), std::string::npos) << message;
  EXPECT_EQ(message.find("tags[2]"), std::string::npos) << message;
}

TEST(NormalizeTags, BlankTagIsRejected) {
  FieldErrors errors;
  NormalizeTags(Tags({"   "}), "run.tags", errors);
  EXPECT_EQ(Fields(errors),
            "run.tags[0]: a tag must not be empty or only spaces");
}

TEST(NormalizeTags, AtMostTenDistinct) {
  std::vector<std::string> ten;
  for (int i = 0; i < 10; ++i) ten.push_back("t" + std::to_string(i));
  FieldErrors ok;
  // Duplicates do not count against the limit.
  std::vector<std::string> with_duplicates = ten;
  with_duplicates.push_back(" t0 ");
  EXPECT_EQ(NormalizeTags(Tags(with_duplicates), "tags", ok).size(), 10u);
  EXPECT_TRUE(ok.empty());

  std::vector<std::string> eleven = ten;
  eleven.push_back("t10");
  FieldErrors errors;
  NormalizeTags(Tags(eleven), "tags", errors);
  EXPECT_EQ(Fields(errors), "tags: at most 10 distinct tags; got 11");
}

TEST(NormalizeTags, AHugeListIsOneViolation) {
  FieldErrors errors;
  NormalizeTags(Tags(std::vector<std::string>(5000, "bad tag")), "tags",
                errors);
  EXPECT_EQ(Fields(errors), "tags: at most 10 distinct tags; got 5000 entries");
}

TEST(NormalizeTag, Filter) {
  EXPECT_EQ(*NormalizeTag("  swing "), "swing");
  EXPECT_FALSE(NormalizeTag("a b").ok());
  EXPECT_FALSE(NormalizeTag("").ok());
}

TEST(CheckRunName, LengthAndControlCharacters) {
  FieldErrors ok;
  CheckRunName("", "name", ok);
  CheckRunName("Morning momentum, v2", "name", ok);
  EXPECT_TRUE(ok.empty());
  FieldErrors long_name;
  CheckRunName(std::string(201, 'n'), "name", long_name);
  EXPECT_FALSE(long_name.empty());
  FieldErrors control;
  CheckRunName("a\nb", "name", control);
  EXPECT_FALSE(control.empty());
}

TEST(CheckOrderPrices, ValidOrder) {
  FieldErrors errors;
  CheckOrderPrices(100, 98, 105, errors);
  EXPECT_TRUE(errors.empty()) << Fields(errors);
}

TEST(CheckOrderPrices, MissingAndNonPositive) {
  FieldErrors errors;
  CheckOrderPrices(std::nullopt, 0, -1, errors);
  EXPECT_EQ(Fields(errors),
            "entryPrice: is required; stopLossPrice: must be a number from "
            "0.000001 to 1e15; takeProfitPrice: must be a number from "
            "0.000001 to 1e15");
}

// Prices near the double maximum made outcomes overflow (a targetPrice of
// Infinity); tiny ones round to 0 and overflow the maximum gain.
TEST(CheckOrderPrices, BoundedAboveAndBelow) {
  FieldErrors bounds;
  CheckOrderPrices(0.000001, 0.000001 / 2, 1e15, bounds);
  EXPECT_EQ(Fields(bounds),
            "stopLossPrice: must be a number from 0.000001 to 1e15");
  FieldErrors huge;
  CheckOrderPrices(6e306, 1, 1e308, huge);
  EXPECT_EQ(Fields(huge),
            "entryPrice: must be a number from 0.000001 to 1e15; "
            "takeProfitPrice: must be a number from 0.000001 to 1e15");
  FieldErrors edges;
  CheckOrderPrices(2, 0.000001, 1e15, edges);
  EXPECT_TRUE(edges.empty()) << Fields(edges);
}

TEST(CheckOrderPrices, Ordering) {
  FieldErrors stop_above;
  CheckOrderPrices(100, 100, 105, stop_above);
  EXPECT_EQ(Fields(stop_above), "stopLossPrice: must be below entryPrice");
  FieldErrors target_below;
  CheckOrderPrices(100, 98, 99, target_below);
  EXPECT_EQ(Fields(target_below), "takeProfitPrice: must be above entryPrice");
}

TEST(ParseRunId, DigitsOnly) {
  EXPECT_EQ(ParseRunId("42"), 42);
  EXPECT_EQ(ParseRunId("000042"), 42);
  EXPECT_FALSE(ParseRunId("").has_value());
  EXPECT_FALSE(ParseRunId("0").has_value());
  EXPECT_FALSE(ParseRunId("-1").has_value());
  EXPECT_FALSE(ParseRunId("12a").has_value());
  EXPECT_FALSE(ParseRunId("1234567890123456789").has_value());
}

TEST(PageToken, RoundTripAndKindCheck) {
  const PageCursor cursor{absl::FromUnixMicros(1740990600123456), 77};
  const std::string token = EncodeKeysetToken("runs", cursor);
  auto decoded = DecodeKeysetToken("runs", token);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_TRUE(decoded->has_value());
  EXPECT_EQ((*decoded)->at, cursor.at);
  EXPECT_EQ((*decoded)->id, 77);
  EXPECT_FALSE(DecodeKeysetToken("orders", token).ok());
  EXPECT_FALSE(DecodeKeysetToken("runs", "garbage!").ok());
  EXPECT_FALSE(DecodeKeysetToken("runs", "bm9wZQ").ok());  // "nope"
  auto empty = DecodeKeysetToken("runs", "");
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->has_value());
}

TEST(ClientKey, PeersLoseSchemeAndPort) {
  EXPECT_EQ(ClientKey("ipv4:10.0.0.7:51234"), "10.0.0.7");
  EXPECT_EQ(ClientKey("ipv6:[::1]:51234"), "::1");
  EXPECT_EQ(ClientKey("203.0.113.9"), "203.0.113.9");
  EXPECT_EQ(ClientKey("2001:db8::1"), "2001:db8::1");
}

}  // namespace
}  // namespace mdc::domain

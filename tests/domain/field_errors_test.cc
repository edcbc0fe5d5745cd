// FieldErrors and the google.rpc.Status the server sends stay bounded
// whatever a request holds: one caller's thousand bad items must neither
// grow the server's memory nor overflow the trailers of a connection other
// callers share.
#include "domain/field_errors.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "domain/error_reason.h"
#include "google/rpc/error_details.pb.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

using ::mdc::testing::FieldViolations;

TEST(FieldErrors, ListsAtMostAHundredAndCountsTheRest) {
  FieldErrors errors;
  for (int i = 0; i < 5000; ++i) {
    errors.Add(absl::StrCat("data.quotes[", i, "].nseSymbol"), "is required");
  }
  EXPECT_EQ(errors.count(), 5000);
  const absl::Status status = errors.ToStatus();
  const auto violations = FieldViolations(status);
  ASSERT_EQ(violations.size(), static_cast<size_t>(kMaxFieldViolations));
  EXPECT_EQ(violations.front().first, "data.quotes[0].nseSymbol");
  EXPECT_EQ(violations.back().first, "data.quotes[99].nseSymbol");
  EXPECT_LE(status.message().size(), kMaxStatusMessageBytes);
  EXPECT_TRUE(absl::EndsWith(status.message(), " more)")) << status.message();
  EXPECT_NE(status.message().find("data.quotes[0].nseSymbol: is required"),
            absl::string_view::npos);
}

TEST(FieldErrors, CutsLongPathsAndDescriptionsAtCharacterBoundaries) {
  FieldErrors errors;
  // Two-byte characters: a cut at an odd byte would split one.
  const std::string long_text(2001, 'x');
  std::string accents;
  for (int i = 0; i < 1000; ++i) accents += "\xc3\xa9";  // é
  errors.Add(long_text, accents);
  const auto violations = FieldViolations(errors.ToStatus());
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_LE(violations[0].first.size(), kMaxFieldPathBytes);
  EXPECT_TRUE(absl::EndsWith(violations[0].first, "..."));
  const std::string& description = violations[0].second;
  EXPECT_LE(description.size(), kMaxDescriptionBytes);
  ASSERT_TRUE(absl::EndsWith(description, "..."));
  const std::string kept = description.substr(0, description.size() - 3);
  EXPECT_EQ(kept.size() % 2, 0u) << "a character was split";
}

TEST(FieldErrors, KeepsTheListedBytesBounded) {
  FieldErrors errors;
  const std::string description(kMaxDescriptionBytes, 'd');
  for (int i = 0; i < 90; ++i) errors.Add(absl::StrCat("f", i), description);
  const auto violations = FieldViolations(errors.ToStatus());
  size_t bytes = 0;
  for (const auto& [field, text] : violations)
    bytes += field.size() + text.size();
  EXPECT_LE(bytes, kMaxViolationBytes);
  EXPECT_LT(violations.size(), 90u);
  EXPECT_EQ(errors.count(), 90);
}

TEST(FieldErrors, AFewViolationsAreListedWhole) {
  FieldErrors errors;
  errors.Add("a", "is required");
  errors.Add("b[1].c", "must be positive");
  EXPECT_EQ(errors.ToStatus().message(),
            "a: is required; b[1].c: must be positive");
}

TEST(ToRpcStatus, StaysWithinTheTrailerBudgetWhateverTheStatus) {
  // A status built by hand, not through FieldErrors: the one place that
  // makes the wire status still bounds it.
  google::rpc::BadRequest bad_request;
  for (int i = 0; i < 3000; ++i) {
    auto* v = bad_request.add_field_violations();
    v->set_field(absl::StrCat("symbols[", i, "]"));
    v->set_description("must be 1-32 characters of A-Z a-z 0-9 & . _ -");
  }
  absl::Status status = absl::InvalidArgumentError(std::string(50000, 'm'));
  status.SetPayload(kBadRequestTypeUrl,
                    absl::Cord(bad_request.SerializeAsString()));
  status =
      WithReason(status, "SOME_REASON", {{"dates", std::string(9000, '1')}});
  const google::rpc::Status rpc = ToRpcStatus(status);
  EXPECT_LE(rpc.ByteSizeLong(), kMaxStatusBytes);
  EXPECT_LE(rpc.message().size(), kMaxStatusMessageBytes);
  ASSERT_EQ(rpc.details_size(), 2);
  google::rpc::BadRequest sent;
  ASSERT_TRUE(sent.ParseFromString(rpc.details(0).value()));
  ASSERT_GT(sent.field_violations_size(), 10);
  EXPECT_EQ(sent.field_violations(0).field(), "symbols[0]");
}

TEST(CutText, LeavesShortTextAlone) {
  EXPECT_EQ(CutText("abc", 3), "abc");
  EXPECT_EQ(CutText("abcdef", 5), "ab...");
}

}  // namespace
}  // namespace mdc::domain

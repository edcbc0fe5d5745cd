// domain/tokens.h: tokens are random and well-formed, their hash is SHA-256
// (the database holds hashes the clients' tokens must meet), and the
// comparison of hashes is constant-time but exact.
#include "domain/tokens.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/escaping.h"

namespace mdc::domain {
namespace {

std::string Hex(const std::string& bytes) {
  return absl::BytesToHexString(bytes);
}

TEST(HashToken, IsSha256) {
  EXPECT_EQ(Hex(HashToken("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex(HashToken("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two in a row on one thread: nothing of the first stays in the second.
  EXPECT_EQ(Hex(HashToken("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(HashToken, GivesEveryThreadTheSameAnswer) {
  const std::string token = GenerateToken();
  const std::string expected = HashToken(token);
  std::vector<std::string> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] {
      for (int n = 0; n < 100; ++n) got[i] = HashToken(token);
    });
  }
  for (auto& t : threads) t.join();
  for (const std::string& hash : got) EXPECT_EQ(hash, expected);
}

TEST(GenerateToken, IsPrefixedAndUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string token = GenerateToken();
    EXPECT_EQ(token.substr(0, 4), "mdc_");
    EXPECT_TRUE(seen.insert(token).second);
  }
}

TEST(ConstantTimeEquals, IsExact) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "ab"));
  EXPECT_TRUE(ConstantTimeEquals("", ""));
}

}  // namespace
}  // namespace mdc::domain

#include "service/config/flags.h"

#include <gtest/gtest.h>

namespace mdc {
namespace {

TEST(ParseFlags, BothSpellingsInOrder) {
  auto flags = ParseFlags({"--a=1", "--b", "two words", "--c="});
  ASSERT_TRUE(flags.ok()) << flags.status();
  ASSERT_EQ(flags->size(), 3u);
  EXPECT_EQ((*flags)[0].name, "a");
  EXPECT_EQ((*flags)[0].value, "1");
  EXPECT_EQ((*flags)[1].name, "b");
  EXPECT_EQ((*flags)[1].value, "two words");
  EXPECT_EQ((*flags)[2].name, "c");
  EXPECT_EQ((*flags)[2].value, "");
}

TEST(ParseFlags, RefusesBareArgumentsAndMissingValues) {
  EXPECT_EQ(ParseFlags({"serve"}).status().message(),
            "unexpected argument serve");
  EXPECT_EQ(ParseFlags({"--a=1", "--b"}).status().message(),
            "--b needs a value");
  EXPECT_TRUE(ParseFlags({}).ok());
}

}  // namespace
}  // namespace mdc

// The /proc parsers behind the process metrics, on text in the kernel's
// format, and a read of this test's own process.
#include "service/metrics/process_stats.h"

#include <gtest/gtest.h>

#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"

namespace mdc {
namespace {

// A /proc/<pid>/stat line (proc(5)) whose command name holds spaces and
// parentheses, as a thread name may: utime 250, stime 50 ticks, 7 threads,
// started 1000 ticks after boot, 123456789 bytes of virtual memory, 2048
// resident pages.
constexpr char kStat[] =
    "4242 (mdc (a) b) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 "
    "7 0 1000 123456789 2048 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 "
    "17 1 0 0 0 0 0\n";

TEST(ProcessStatsTest, ParsesTheStatLine) {
  auto stats = ParseProcStat(kStat, /*ticks_per_second=*/100,
                             /*page_bytes=*/4096,
                             /*boot_time_seconds=*/1700000000);
  ASSERT_TRUE(stats.has_value());
  EXPECT_DOUBLE_EQ(stats->cpu_seconds, 3.0);
  EXPECT_DOUBLE_EQ(stats->threads, 7);
  EXPECT_DOUBLE_EQ(stats->start_time_seconds, 1700000010);
  EXPECT_DOUBLE_EQ(stats->virtual_bytes, 123456789);
  EXPECT_DOUBLE_EQ(stats->resident_bytes, 2048.0 * 4096);
}

TEST(ProcessStatsTest, RefusesWhatIsNotAStatLine) {
  for (const char* text :
       {"", "4242 no parentheses 1 2 3", "4242 (short) S 1 2",
        "4242 (x) S 1 1 1 0 -1 0 0 0 0 0 abc 50 0 0 20 0 7 "
        "0 1000 1 2"}) {
    EXPECT_FALSE(ParseProcStat(text, 100, 4096, 0).has_value()) << text;
  }
  EXPECT_FALSE(ParseProcStat(kStat, /*ticks_per_second=*/0, 4096, 0));
}

TEST(ProcessStatsTest, FindsTheBootTime) {
  EXPECT_EQ(ParseBootTime("cpu  1 2 3\nintr 5\nctxt 9\nbtime 1699999999\n"
                          "processes 77\n"),
            1699999999);
  EXPECT_FALSE(ParseBootTime("cpu  1 2 3\nctxt 9\n").has_value());
  EXPECT_FALSE(ParseBootTime("btime soon\n").has_value());
}

TEST(ProcessStatsTest, ReadsThisProcess) {
  // One more thread than the test's own, alive while we read.
  absl::Notification done;
  std::thread extra([&] { done.WaitForNotification(); });
  auto stats = ReadProcessStats();
  done.Notify();
  extra.join();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_GT(stats->resident_bytes, 0);
  EXPECT_GT(stats->virtual_bytes, stats->resident_bytes);
  EXPECT_GE(stats->threads, 2);
  EXPECT_GE(stats->open_fds, 3);  // stdin, stdout, stderr at least
  EXPECT_GE(stats->cpu_seconds, 0);
  const double now = absl::ToUnixSeconds(absl::Now());
  EXPECT_GT(stats->start_time_seconds, now - 24 * 3600);
  EXPECT_LE(stats->start_time_seconds, now + 1);
}

}  // namespace
}  // namespace mdc

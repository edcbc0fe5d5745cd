// mdc-developer-bench: loads synthetic quotes through the Save Quote API and
// measures the latency of the developer reads strategy code calls most (an
// as-of Quote and a one-day Quote Timeline). See docs/performance/developer.md.
//
//   mdc-developer-bench load --grpc-addr=H:P --token=T --first-day=2025-01-06
//       --days=20 --symbols=300 [--skip-days=0] [--concurrency=4]
//   mdc-developer-bench measure --grpc-addr=H:P --token=T --day=2025-01-06
//       --symbols=300 [--requests=2000]
//
// Days are weekdays from --first-day; each has one quote a minute per symbol
// from 09:15 to 15:29 IST (375 instants), symbols SYM000, SYM001, ...
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "mdc/v1/collector.grpc.pb.h"
#include "mdc/v1/developer.grpc.pb.h"

namespace {

constexpr int kMinutesPerDay = 375;  // 09:15 .. 15:29

std::map<std::string, std::string> ParseFlags(int argc, char** argv) {
  std::map<std::string, std::string> flags;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg.find('=') == std::string::npos) {
      std::fprintf(stderr, "flags are --name=value, got %s\n", arg.c_str());
      std::exit(2);
    }
    const size_t eq = arg.find('=');
    flags[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
  }
  return flags;
}

std::string Flag(const std::map<std::string, std::string>& flags,
                 const std::string& name, const std::string& fallback = "") {
  auto it = flags.find(name);
  if (it != flags.end()) return it->second;
  if (fallback.empty()) {
    std::fprintf(stderr, "--%s is required\n", name.c_str());
    std::exit(2);
  }
  return fallback;
}

int IntFlag(const std::map<std::string, std::string>& flags,
            const std::string& name, const std::string& fallback = "") {
  int value = 0;
  if (!absl::SimpleAtoi(Flag(flags, name, fallback), &value)) {
    std::fprintf(stderr, "--%s must be an integer\n", name.c_str());
    std::exit(2);
  }
  return value;
}

absl::CivilDay DayFlag(const std::map<std::string, std::string>& flags,
                       const std::string& name) {
  absl::CivilDay day;
  if (!absl::ParseCivilTime(Flag(flags, name), &day)) {
    std::fprintf(stderr, "--%s must be YYYY-MM-DD\n", name.c_str());
    std::exit(2);
  }
  return day;
}

std::vector<absl::CivilDay> Weekdays(absl::CivilDay first, int count) {
  std::vector<absl::CivilDay> days;
  for (absl::CivilDay d = first; static_cast<int>(days.size()) < count; ++d) {
    const absl::Weekday w = absl::GetWeekday(d);
    if (w != absl::Weekday::saturday && w != absl::Weekday::sunday) {
      days.push_back(d);
    }
  }
  return days;
}

std::string Symbol(int i) { return absl::StrFormat("SYM%03d", i); }

std::string WallClock(absl::CivilSecond s) {
  return absl::FormatCivilTime(s);  // YYYY-MM-DDTHH:MM:SS
}

absl::CivilSecond Minute(absl::CivilDay day, int minute_of_session) {
  return absl::CivilSecond(day) + (9 * 3600 + 15 * 60) + 60 * minute_of_session;
}

void AddAuth(grpc::ClientContext& context, const std::string& token) {
  context.AddMetadata("authorization", "Bearer " + token);
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(60));
}

int Load(const std::map<std::string, std::string>& flags) {
  const std::string token = Flag(flags, "token");
  const int symbols = IntFlag(flags, "symbols", "300");
  const int concurrency = IntFlag(flags, "concurrency", "4");
  const int skip = IntFlag(flags, "skip-days", "0");
  std::vector<absl::CivilDay> days =
      Weekdays(DayFlag(flags, "first-day"), IntFlag(flags, "days"));
  days.erase(days.begin(), days.begin() + std::min<size_t>(skip, days.size()));
  auto channel = grpc::CreateChannel(Flag(flags, "grpc-addr"),
                                     grpc::InsecureChannelCredentials());
  auto stub = mdc::v1::CollectorService::NewStub(channel);

  // Every (day, minute) is one request of `symbols` quotes.
  struct Job {
    absl::CivilDay day;
    int minute;
  };
  std::vector<Job> jobs;
  for (const auto& day : days) {
    for (int m = 0; m < kMinutesPerDay; ++m) jobs.push_back({day, m});
  }
  std::atomic<size_t> next{0};
  std::atomic<int> failures{0};
  const absl::Time start = absl::Now();
  std::vector<std::thread> workers;
  for (int w = 0; w < concurrency; ++w) {
    workers.emplace_back([&] {
      for (size_t j = next++; j < jobs.size(); j = next++) {
        mdc::v1::SaveQuotesRequest request;
        auto* data = request.mutable_data();
        data->set_timestamp(WallClock(Minute(jobs[j].day, jobs[j].minute)));
        data->set_timezone("Asia/Kolkata");
        for (int s = 0; s < symbols; ++s) {
          auto* item = data->add_quotes();
          item->set_nse_symbol(Symbol(s));
          auto* quote = item->mutable_quote_data();
          quote->set_status(mdc::v1::SUCCESS);
          auto* payload = quote->mutable_payload();
          const double base = 100 + s;
          const double price = base + 0.05 * ((jobs[j].minute * 7 + s) % 41);
          payload->set_last_price(price);
          payload->set_volume(1000.0 * (jobs[j].minute + 1) + s);
          payload->set_day_change_perc((price - base) / base * 100);
          payload->set_average_price(base + 1);
          payload->mutable_ohlc()->set_open(base);
          payload->mutable_ohlc()->set_high(base + 2.05);
          payload->mutable_ohlc()->set_low(base - 0.5);
          payload->mutable_ohlc()->set_close(base - 0.25);
        }
        grpc::ClientContext context;
        AddAuth(context, token);
        google::protobuf::Empty empty;
        grpc::Status status = stub->SaveQuotes(&context, request, &empty);
        if (!status.ok()) {
          ++failures;
          std::fprintf(stderr, "SaveQuotes failed: %s\n",
                       status.error_message().c_str());
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  const double quotes = static_cast<double>(jobs.size()) * symbols;
  std::printf(
      "loaded %zu days, %.0f quotes in %.1f s (%.0f quotes/s), %d failed "
      "requests\n",
      days.size(), quotes, seconds, quotes / seconds, failures.load());
  return failures.load() == 0 ? 0 : 1;
}

struct Stats {
  double p50, p99, mean;
};

Stats Summarise(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  double sum = 0;
  for (double v : ms) sum += v;
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))];
  };
  return {at(0.50), at(0.99), sum / ms.size()};
}

int Measure(const std::map<std::string, std::string>& flags) {
  const std::string token = Flag(flags, "token");
  const int symbols = IntFlag(flags, "symbols", "300");
  const int requests = IntFlag(flags, "requests", "2000");
  const absl::CivilDay day = DayFlag(flags, "day");
  auto channel = grpc::CreateChannel(Flag(flags, "grpc-addr"),
                                     grpc::InsecureChannelCredentials());
  auto stub = mdc::v1::DeveloperService::NewStub(channel);
  std::mt19937 random(42);
  std::vector<double> as_of_ms, timeline_ms;
  int bad = 0;
  // Warm up connections and prepared statements.
  for (int i = 0; i < 50; ++i) {
    grpc::ClientContext context;
    AddAuth(context, token);
    mdc::v1::GetQuoteRequest request;
    request.set_symbol(Symbol(i % symbols));
    mdc::v1::StockQuote quote;
    (void)stub->GetQuote(&context, request, &quote);
  }
  for (int i = 0; i < requests; ++i) {
    const std::string symbol = Symbol(random() % symbols);
    {
      mdc::v1::GetQuoteRequest request;
      request.set_symbol(symbol);
      // Any second of the session.
      request.set_datetime(WallClock(Minute(day, random() % kMinutesPerDay) +
                                     static_cast<int>(random() % 60)));
      grpc::ClientContext context;
      AddAuth(context, token);
      mdc::v1::StockQuote quote;
      const absl::Time t0 = absl::Now();
      grpc::Status status = stub->GetQuote(&context, request, &quote);
      as_of_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - t0));
      if (!status.ok()) ++bad;
    }
    {
      mdc::v1::GetQuoteTimelineRequest request;
      request.set_symbol(symbol);
      request.set_start_datetime(WallClock(Minute(day, 0)));
      request.set_end_datetime(WallClock(Minute(day, kMinutesPerDay)));
      request.set_page_size(1000);
      grpc::ClientContext context;
      AddAuth(context, token);
      mdc::v1::QuoteTimeline timeline;
      const absl::Time t0 = absl::Now();
      grpc::Status status =
          stub->GetQuoteTimeline(&context, request, &timeline);
      timeline_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - t0));
      if (!status.ok() || timeline.quotes_size() != kMinutesPerDay) ++bad;
    }
  }
  const Stats a = Summarise(as_of_ms);
  const Stats t = Summarise(timeline_ms);
  std::printf("client round trip over %d requests each (ms):\n", requests);
  std::printf("  as-of Quote          p50 %.3f  p99 %.3f  mean %.3f\n", a.p50,
              a.p99, a.mean);
  std::printf("  one-day timeline     p50 %.3f  p99 %.3f  mean %.3f\n", t.p50,
              t.p99, t.mean);
  if (bad > 0) std::printf("  %d requests failed or were incomplete\n", bad);
  return bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s load|measure --flag=value ...\n", argv[0]);
    return 2;
  }
  const std::string command = argv[1];
  const auto flags = ParseFlags(argc, argv);
  if (command == "load") return Load(flags);
  if (command == "measure") return Measure(flags);
  std::fprintf(stderr, "unknown command %s\n", command.c_str());
  return 2;
}

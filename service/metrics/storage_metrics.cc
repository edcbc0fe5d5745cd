#include "service/metrics/storage_metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <string>

#include "storage/pool.h"

namespace mdc {
namespace {

using prometheus::Histogram;

// Seconds a checkout waits for a connection: from a busy moment to the
// 10 s an Acquire gives up after.
const Histogram::BucketBoundaries& WaitBuckets() {
  static const auto* const buckets = new Histogram::BucketBoundaries{
      0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
      0.1,    0.25,   0.5,   1,      2.5,   5,    10};
  return *buckets;
}

// Statements per batch: up to the pool's 256.
const Histogram::BucketBoundaries& SizeBuckets() {
  static const auto* const buckets =
      new Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128, 256};
  return *buckets;
}

const Histogram::BucketBoundaries& DurationBuckets() {
  static const auto* const buckets = new Histogram::BucketBoundaries{
      0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 5};
  return *buckets;
}

// The tables the repositories report writes to.
constexpr absl::string_view kTables[] = {
    "stock_quotes", "nifty_quotes", "shortlist_snapshots",
    "runs",         "orders",       "holidays"};

}  // namespace

StorageMetrics::StorageMetrics(prometheus::Registry& registry)
    : storage_report_(registry) {
  auto gauge = [&](const char* name, const char* help) {
    return &prometheus::BuildGauge()
                .Name(name)
                .Help(help)
                .Register(registry)
                .Add({});
  };
  auto counter = [&](const char* name, const char* help) {
    return &prometheus::BuildCounter()
                .Name(name)
                .Help(help)
                .Register(registry)
                .Add({});
  };
  max_connections_ = gauge("mdc_db_pool_max_connections",
                           "Connections the pool may open (MDC_DB_POOL_SIZE)");
  in_use_ = gauge("mdc_db_pool_connections_in_use",
                  "Connections checked out of the pool (or being opened)");
  open_ = gauge("mdc_db_pool_connections_open",
                "Connections open: idle plus in use");
  wait_ = &prometheus::BuildHistogram()
               .Name("mdc_db_pool_wait_seconds")
               .Help(
                   "Time a checkout waited because every connection was "
                   "busy; _count is the number of waits")
               .Register(registry)
               .Add({}, WaitBuckets());
  wait_timeouts_ = counter(
      "mdc_db_pool_wait_timeouts_total",
      "Checkouts that found no connection free in time (RESOURCE_EXHAUSTED)");
  reconnects_ = counter(
      "mdc_db_pool_reconnects_total",
      "Connections opened to replace one found broken (database restart)");
  connect_failures_ =
      counter("mdc_db_pool_connect_failures_total",
              "Attempts to open a database connection that failed");
  queue_depth_ = &prometheus::BuildGauge()
                      .Name("mdc_batcher_queue_depth")
                      .Help("Statements waiting for a batch, by batcher")
                      .Register(registry);
  batch_size_ =
      &prometheus::BuildHistogram()
           .Name("mdc_batcher_batch_size")
           .Help("Submissions (statements queued) per batch, by batcher")
           .Register(registry);
  statements_ =
      &prometheus::BuildCounter()
           .Name("mdc_batcher_statements_total")
           .Help(
               "SQL statements the batches ran for their submissions, by "
               "batcher: a write batch runs one for all its writes of one "
               "kind; a failed batch runs each again alone")
           .Register(registry);
  batch_duration_ =
      &prometheus::BuildHistogram()
           .Name("mdc_batcher_batch_duration_seconds")
           .Help(
               "Time to run one batch, connection checkout included; for "
               "the write batchers through COMMIT (the commit latency)")
           .Register(registry);
  rows_written_ = &prometheus::BuildCounter()
                       .Name("mdc_rows_written_total")
                       .Help("Rows inserted or updated and committed, by table")
                       .Register(registry);
  for (absl::string_view name :
       {storage::ConnectionPool::kReads, storage::ConnectionPool::kAsyncReads,
        storage::ConnectionPool::kWrites,
        storage::ConnectionPool::kBulkWrites}) {
    batchers_.push_back(MakeBatcher(name));
  }
  for (absl::string_view table : kTables) {
    tables_.push_back(
        {table, &rows_written_->Add({{"table", std::string(table)}})});
  }
}

StorageMetrics::BatcherSeries StorageMetrics::MakeBatcher(
    absl::string_view name) {
  const prometheus::Labels labels = {{"batcher", std::string(name)}};
  return {name, &queue_depth_->Add(labels),
          &batch_size_->Add(labels, SizeBuckets()),
          &batch_duration_->Add(labels, DurationBuckets()),
          &statements_->Add(labels)};
}

StorageMetrics::BatcherSeries StorageMetrics::Batcher(absl::string_view name) {
  for (const BatcherSeries& series : batchers_) {
    if (series.name == name) return series;
  }
  // Family::Add returns the series already made for the same labels.
  return MakeBatcher(name);
}

prometheus::Counter* StorageMetrics::Table(absl::string_view table) {
  for (const TableSeries& series : tables_) {
    if (series.table == table) return series.rows;
  }
  return &rows_written_->Add({{"table", std::string(table)}});
}

void StorageMetrics::PoolSized(int max) { max_connections_->Set(max); }

void StorageMetrics::PoolConnections(int in_use, int open) {
  in_use_->Set(in_use);
  open_->Set(open);
}

void StorageMetrics::PoolWaited(absl::Duration waited, bool timed_out) {
  wait_->Observe(absl::ToDoubleSeconds(waited));
  if (timed_out) wait_timeouts_->Increment();
}

void StorageMetrics::PoolReconnected() { reconnects_->Increment(); }

void StorageMetrics::PoolConnectFailed() { connect_failures_->Increment(); }

void StorageMetrics::BatchQueueDepth(absl::string_view batcher, int depth) {
  Batcher(batcher).queue_depth->Set(depth);
}

void StorageMetrics::BatchRan(absl::string_view batcher, int statements,
                              absl::Duration took) {
  const BatcherSeries series = Batcher(batcher);
  series.batch_size->Observe(statements);
  series.batch_duration->Observe(absl::ToDoubleSeconds(took));
}

void StorageMetrics::BatchStatements(absl::string_view batcher, int sent) {
  Batcher(batcher).statements->Increment(sent);
}

void StorageMetrics::WriteCommitted(const storage::CommittedWrite& write) {
  Table(write.table)->Increment(static_cast<double>(write.rows));
}

void StorageMetrics::StorageReported(
    const std::vector<storage::StorageUsage>& usage) {
  storage_report_.Replace(usage);
}

}  // namespace mdc

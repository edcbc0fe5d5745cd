// Every repository over one connection pool, built once at start-up and
// shared by the services.
#ifndef MDC_STORAGE_REPOSITORIES_H_
#define MDC_STORAGE_REPOSITORIES_H_

#include "storage/broker_credentials_repository.h"
#include "storage/broker_token_repository.h"
#include "storage/compaction_repository.h"
#include "storage/coverage_repository.h"
#include "storage/developer_repository.h"
#include "storage/developer_write_repository.h"
#include "storage/holiday_repository.h"
#include "storage/instrument_repository.h"
#include "storage/maintenance_repository.h"
#include "storage/market_data_repository.h"
#include "storage/market_event_repository.h"
#include "storage/nifty_repository.h"
#include "storage/partition_repository.h"
#include "storage/pool.h"
#include "storage/quote_batch_repository.h"
#include "storage/quote_repository.h"
#include "storage/run_repository.h"
#include "storage/shortlist_repository.h"
#include "storage/sign_in_repository.h"
#include "storage/storage_report_repository.h"

namespace mdc::storage {

struct Repositories {
  explicit Repositories(ConnectionPool& pool)
      : pool(pool),
        developers(pool),
        shortlists(pool),
        nifty(pool),
        quotes(pool),
        market_data(pool),
        holidays(pool),
        broker_tokens(pool),
        maintenance(pool),
        broker_credentials(pool),
        runs(pool),
        quote_batches(pool),
        sign_ins(pool),
        partitions(pool),
        market_events(pool),
        coverage(pool),
        developer_writes(pool),
        compaction(pool),
        storage_report(pool),
        instruments(pool) {}

  ConnectionPool& pool;
  DeveloperRepository developers;
  ShortlistRepository shortlists;
  NiftyRepository nifty;
  QuoteRepository quotes;
  MarketDataRepository market_data;
  HolidayRepository holidays;
  BrokerTokenRepository broker_tokens;
  MaintenanceRepository maintenance;
  BrokerCredentialsRepository broker_credentials;
  RunRepository runs;
  QuoteBatchRepository quote_batches;
  SignInRepository sign_ins;
  PartitionRepository partitions;
  MarketEventRepository market_events;
  CoverageRepository coverage;
  DeveloperWriteRepository developer_writes;
  CompactionRepository compaction;
  StorageReportRepository storage_report;
  InstrumentRepository instruments;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_REPOSITORIES_H_

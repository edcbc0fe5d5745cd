// The messages of the export RPCs (mdc.v1.ExportService), made a page at a
// time for a PagedStream: stored records of a range of trading days in time
// order (the replay's keyset pages, day after day), or candles symbol after
// symbol. Each page is one statement of its own on a pooled connection
// (autocommit): an export holds no transaction open, so it never holds back
// writes or the streams' commit horizon, and it may read from the replica
// like the other market reads (each page routed on its own).
#ifndef MDC_SERVICE_STREAMS_EXPORT_SOURCES_H_
#define MDC_SERVICE_STREAMS_EXPORT_SOURCES_H_

#include <memory>

#include "mdc/v1/export.pb.h"
#include "service/calls/rpc_facts.h"
#include "service/replica/routed_reads.h"
#include "service/streams/arena_message.h"
#include "service/streams/paged_stream.h"
#include "storage/instrument_repository.h"
#include "storage/market_event_repository.h"
#include "storage/nifty_repository.h"
#include "storage/quote_batch_repository.h"
#include "storage/quote_repository.h"

namespace mdc {

// Records read per page, and the most one message holds.
inline constexpr int kExportPage = 1000;

// The repositories the exports read.
struct ExportStores {
  storage::MarketEventRepository& events;
  storage::QuoteRepository& quotes;
  storage::NiftyRepository& nifty;
  storage::QuoteBatchRepository& quote_batches;
  storage::InstrumentRepository& instruments;
};

using ExportReads = RoutedReads<ExportStores>;

// A message of an export: a chunk of up to kExportPage records, on an arena
// of its own (NewExportMessage).
using ExportMessage = ArenaMessage<v1::ExportChunk>;
ExportMessage NewExportMessage();

// The reads of an export: where they go (`from`, the RPC's read_from).
struct ExportReader {
  const ExportReads& reads;
  ReadsFrom from;
};

std::unique_ptr<MessageSource<ExportMessage>> QuoteExport(
    ExportReader reader, v1::ExportQuotesRequest request);
std::unique_ptr<MessageSource<ExportMessage>> NiftyExport(
    ExportReader reader, v1::ExportNiftyRequest request);
std::unique_ptr<MessageSource<ExportMessage>> ShortlistExport(
    ExportReader reader, v1::ExportShortlistsRequest request);
std::unique_ptr<MessageSource<ExportMessage>> CandleExport(
    ExportReader reader, v1::ExportCandlesRequest request);

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_EXPORT_SOURCES_H_

#include "service/streams/market_commit_observer.h"

namespace mdc {

bool IsMarketTable(absl::string_view table) {
  return table == "stock_quotes" || table == "nifty_quotes" ||
         table == "shortlist_snapshots";
}

void MarketCommitObserver::RowsWritten(absl::string_view table, int64_t rows) {
  next_.RowsWritten(table, rows);
  if (rows > 0 && IsMarketTable(table)) commits_.Raise();
}

}  // namespace mdc

#include "service/lifecycle/committed_writes.h"

namespace mdc {

bool IsMarketTable(absl::string_view table) {
  return table == "stock_quotes" || table == "nifty_quotes" ||
         table == "shortlist_snapshots";
}

void CommittedWrites::WriteCommitted(const storage::CommittedWrite& write) {
  metrics_.WriteCommitted(write);
  if (write.tally.has_value()) {
    if (WriteActivity* tallies = tallies_.load(); tallies != nullptr) {
      tallies->Record(*write.tally);
    }
  }
  if (write.rows > 0 && IsMarketTable(write.table)) market_commits_.Raise();
}

}  // namespace mdc

#include "storage/observer.h"

namespace mdc::storage {

StorageObserver& NoStorageObserver() {
  // Never destroyed: pools and their threads may outlive static destruction.
  static StorageObserver* const none = new StorageObserver();
  return *none;
}

}  // namespace mdc::storage

// Work split over a few threads. Encoding and decoding compacted batches is
// CPU work in the server alone, where a read of the row store runs in
// PostgreSQL beside the server: a cross-section of a thousand symbols
// decodes a thousand batches, which a second core halves.
#ifndef MDC_STORAGE_PARALLEL_WORK_H_
#define MDC_STORAGE_PARALLEL_WORK_H_

#include <cstddef>
#include <functional>

namespace mdc::storage {

// The threads a read's decode may take: the machine's cores, at most 4.
size_t ReadWorkers();

// Calls work(i) once for every i in [0, count), on up to `max_workers`
// threads (the calling one among them), each taking at least
// `min_per_worker` items: fewer threads for less work, none started for
// a little. Returns when every call has returned; `work` must be safe to
// call from several threads at once.
void InParallel(size_t count, size_t min_per_worker, size_t max_workers,
                const std::function<void(size_t)>& work);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_PARALLEL_WORK_H_

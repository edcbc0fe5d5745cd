// A minimal blocking HTTP client for calls the server makes to outside
// services (the broker's token endpoint). An interface so callers can be
// tested against fakes; CurlHttpClient is the real one (libcurl).
//
// Thread-safe.
#ifndef MDC_SERVICE_BROKER_HTTP_CLIENT_H_
#define MDC_SERVICE_BROKER_HTTP_CLIENT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc {

struct HttpResponse {
  int status = 0;
  std::string body;
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;

  // POSTs `json` with Content-Type application/json and waits at most
  // `timeout` for the whole exchange. Returns DEADLINE_EXCEEDED on timeout,
  // UNAVAILABLE when the server cannot be reached; any HTTP status is OK.
  virtual absl::StatusOr<HttpResponse> PostJson(absl::string_view url,
                                                absl::string_view json,
                                                absl::Duration timeout) = 0;
};

// libcurl. Construct one per process (it initialises libcurl globally).
class CurlHttpClient final : public HttpClient {
 public:
  CurlHttpClient();
  ~CurlHttpClient() override;

  absl::StatusOr<HttpResponse> PostJson(absl::string_view url,
                                        absl::string_view json,
                                        absl::Duration timeout) override;
};

}  // namespace mdc

#endif  // MDC_SERVICE_BROKER_HTTP_CLIENT_H_

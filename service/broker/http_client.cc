#include "service/broker/http_client.h"

#include <curl/curl.h>

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mdc {
namespace {

// Answers larger than this are cut off: a token answer is tiny.
constexpr size_t kMaxBodyBytes = 1 << 20;

size_t AppendBody(char* data, size_t size, size_t count, void* out) {
  auto* body = static_cast<std::string*>(out);
  const size_t bytes = size * count;
  if (body->size() + bytes > kMaxBodyBytes) return 0;  // aborts the transfer
  body->append(data, bytes);
  return bytes;
}

}  // namespace

CurlHttpClient::CurlHttpClient() { curl_global_init(CURL_GLOBAL_DEFAULT); }

CurlHttpClient::~CurlHttpClient() { curl_global_cleanup(); }

absl::StatusOr<HttpResponse> CurlHttpClient::PostJson(absl::string_view url,
                                                      absl::string_view json,
                                                      absl::Duration timeout) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                           &curl_easy_cleanup);
  if (curl == nullptr) return absl::ResourceExhaustedError("no HTTP handle");
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(
      curl_slist_append(nullptr, "Content-Type: application/json"),
      &curl_slist_free_all);
  const std::string url_text(url);
  HttpResponse response;
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url_text.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, json.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(json.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(absl::ToInt64Milliseconds(timeout)));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // safe in threaded servers
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &AppendBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &response.body);
  const CURLcode code = curl_easy_perform(h);
  if (code == CURLE_OPERATION_TIMEDOUT) {
    return absl::DeadlineExceededError("timed out");
  }
  if (code != CURLE_OK) {
    return absl::UnavailableError(curl_easy_strerror(code));
  }
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  return response;
}

}  // namespace mdc

-- wrk script for mdc's collector writes through the gateway.
--
-- Environment (set by bench/run.sh):
--   MDC_BENCH_BODY   file with the JSON body; @TIMESTAMP@ marks the timestamp
--   MDC_BENCH_PATH   request path, e.g. /v1/developer/collector/shortlists
--   MDC_BENCH_TOKEN  developer bearer token
--   MDC_BENCH_BASE   first timestamp, seconds since epoch (UTC)
--
-- Every request carries a distinct key: thread t (1-based) stamps its n-th
-- request base + t * 10^7 + n seconds, so no two connections ever upsert the
-- same row and the rows stored can be counted afterwards.
--
-- done() prints one line for bench/run.sh:
--   RESULT requests=N non2xx=N socket_errors=N seconds=S rps=R p50_us=.. p90_us=.. p99_us=.. max_us=..

local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_id", thread_count)
end

local prefix, suffix
local counter = 0
local base = 0
local headers = {}

function init(args)
  local file = assert(io.open(os.getenv("MDC_BENCH_BODY"), "r"))
  local template = file:read("*a"):gsub("%s+$", "")
  file:close()
  local at = template:find("@TIMESTAMP@", 1, true)
  assert(at, "no @TIMESTAMP@ in the body template")
  prefix = template:sub(1, at - 1)
  suffix = template:sub(at + #"@TIMESTAMP@")
  base = tonumber(os.getenv("MDC_BENCH_BASE")) + thread_id * 10000000
  wrk.method = "POST"
  wrk.path = os.getenv("MDC_BENCH_PATH")
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. os.getenv("MDC_BENCH_TOKEN")
end

function request()
  counter = counter + 1
  local body = prefix .. os.date("!%Y-%m-%dT%H:%M:%S", base + counter) .. suffix
  return wrk.format(nil, nil, headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d non2xx=%d socket_errors=%d seconds=%.1f rps=%.1f " ..
    "p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
    summary.requests, e.status, e.connect + e.read + e.write + e.timeout,
    summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end

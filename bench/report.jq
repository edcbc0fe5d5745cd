# Renders bench/run.sh results (an array of per-test objects, possibly from
# several runs) as a Markdown table: one row per test, medians over runs.
def median: sort | if length == 0 then null
  elif length % 2 == 1 then .[length / 2 | floor]
  else (.[length / 2 - 1] + .[length / 2]) / 2 end;
def fmt(d): if . == null then "-" else (. * pow(10; d) | round) / pow(10; d) | tostring end;
"| Test | Path | Conns | req/s | rows/s | p50 ms | p90 ms | p99 ms | non-2xx | socket errors | rows stored | x pgbench | CPU cores: load gen / gateway / server / postgres / machine |",
"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
(group_by([.op, .conns, .path])
  | sort_by(.[0] | [(.op as $o | ["shortlist", "nifty", "quotes"] | index($o)), .conns,
                    (.path as $p | ["pgbench", "gateway", "grpc"] | index($p))])
  | .[] |
  . as $g | $g[0] as $t |
  def m(f): [$g[] | f] | median;
  "| \($t.label) | \($t.path) | \($t.conns) | \(m(.rps) | fmt(0)) | \(m(.rows_per_s) | fmt(0)) | " +
  "\(m(.p50_ms) | fmt(1)) | \(m(.p90_ms) | fmt(1)) | \(m(.p99_ms) | fmt(1)) | " +
  "\([$g[] | .non2xx] | add) | \([$g[] | .socket_errors] | add) | \(m(.stored) | fmt(0)) | " +
  "\([$g[] | .ratio | select(. != null)] | median | fmt(2)) | " +
  "\(m(.cpu_load) | fmt(2)) / \(m(.cpu_gateway) | fmt(2)) / \(m(.cpu_server) | fmt(2)) / \(m(.cpu_pg) | fmt(2)) / \(m(.cpu_machine) | fmt(2)) |")

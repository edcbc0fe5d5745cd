#!/usr/bin/env python3
"""Where a request's time goes on the gateway path, hop by hop.

Reads the logs of a bench/run.sh run kept with MDC_BENCH_KEEP=1 (the
scratch folder's gateway.log and server.log: JSON lines, one per request,
each with its request id and latency_ms) and joins the two lines of every
request that crossed the gateway by its request id (the gateway sends its
id to the server as x-request-id). For each collector route it prints the
p10/p50/p90 of:

  gateway   the gateway's handler, from its middleware to the answer written
  server    the server's call, from its handler to the answer (for the
            collector writes: the wait for the batch in front, its own
            batch, the commit)
  hop       gateway - server: the gateway's own work and the HTTP/2 round
            trip to the server
  direct    the server's call for requests that came over gRPC directly
            (bench/grpcload: no gateway line)

and, given wrk's p50 (--wrk-p50, ms, from the report), what is left before
the gateway's middleware and after its answer (HTTP/1.1 on loopback, net/http
reading the request, wrk itself). Latencies only, so it reads the same on a
loaded machine as on a quiet one, where the absolute values differ.

  python3 bench/hop/split.py /tmp/mdc-bench.XXXXXX [--wrk-p50 3.6]
"""
import argparse
import json
import os
import statistics


def lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                yield json.loads(line)
            except ValueError:
                continue


def deciles(values):
    if len(values) < 2:
        return "-"
    q = statistics.quantiles(values, n=10)
    return f"{q[0]:.2f} / {q[4]:.2f} / {q[8]:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--wrk-p50", type=float)
    args = ap.parse_args()
    gateway = {}
    for j in lines(os.path.join(args.folder, "gateway.log")):
        route = j.get("route", "")
        if j.get("msg") == "request" and "/collector/" in route and "latency_ms" in j:
            gateway[j["request_id"]] = (route, j["latency_ms"])
    joined, direct = {}, {}
    for j in lines(os.path.join(args.folder, "server.log")):
        method = j.get("method", "")
        if j.get("msg") != "request" or not method.startswith("Save") or "latency_ms" not in j:
            continue
        rid = j.get("request_id")
        if rid in gateway:
            route, g = gateway[rid]
            joined.setdefault(route, []).append((g, j["latency_ms"]))
        else:
            direct.setdefault(method, []).append(j["latency_ms"])
    print("| route or method | requests | gateway ms p10 / p50 / p90 | server ms | hop (gateway - server) ms |")
    print("|---|---:|---|---|---|")
    for route, pairs in sorted(joined.items()):
        g = [p[0] for p in pairs]
        s = [p[1] for p in pairs]
        print(f"| {route} | {len(pairs)} | {deciles(g)} | {deciles(s)} | {deciles([a - b for a, b in pairs])} |")
        if args.wrk_p50 is not None:
            print(f"| (wrk p50 {args.wrk_p50} ms - gateway p50) | | {args.wrk_p50 - statistics.median(g):.2f} | | |")
    for method, values in sorted(direct.items()):
        print(f"| {method}, gRPC direct | {len(values)} | | {deciles(values)} | |")


if __name__ == "__main__":
    main()

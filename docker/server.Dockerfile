# syntax=docker/dockerfile:1
# mdc-server: built from source with Debian 12's packages (as on a developer
# machine, see scripts/install-deps.sh), run on Debian 12 slim with only the
# shared libraries it links.
#   docker build -f docker/server.Dockerfile -t mdc-server .

FROM debian:12 AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config git python3 python3-pip nodejs npm \
      ca-certificates protobuf-compiler protobuf-compiler-grpc libprotobuf-dev \
      libgrpc++-dev libabsl-dev libpq-dev libssl-dev libcurl4-openssl-dev \
      prometheus-cpp-dev googletest libgtest-dev libgmock-dev tzdata \
      libtcmalloc-minimal4 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The whole source tree (less what .dockerignore leaves out): CMakeLists.txt
# globs its source folders, so a list of them here would go stale.
COPY . .
# Only mdc-server is built here; the gateway has its own image. CMakeLists.txt
# requires a `go` program for the gateway target, which this build never runs,
# so /bin/true stands in for it.
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGO_PROGRAM=/bin/true \
 && cmake --build build --target mdc-server \
 && strip build/mdc-server

FROM debian:12-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libgrpc++1.51 libprotobuf32 libabsl20220623 libpq5 libssl3 libcurl4 \
      libprometheus-cpp-core1.0 libprometheus-cpp-pull1.0 libtcmalloc-minimal4 \
      tzdata ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin mdc
COPY --from=build /src/build/mdc-server /usr/local/bin/mdc-server
USER mdc
ENV MDC_GRPC_ADDR=0.0.0.0:50051 \
    MDC_METRICS_ADDR=0.0.0.0:9464
EXPOSE 50051 9464
# SIGTERM makes the server drain calls in flight before it exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/mdc-server"]

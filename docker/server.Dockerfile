# syntax=docker/dockerfile:1
# mdc-server: built from source with Debian 12's packages (as on a developer
# machine, see scripts/install-deps.sh), run on Debian 12 slim with only the
# shared libraries it links, as an unprivileged user.
#   docker build -f docker/server.Dockerfile -t mdc-server .
#
# BUILD_IMAGE and RUNTIME_IMAGE name the Debian 12 images of the two stages;
# scripts/test-containers.sh passes images it made itself (no registry there).
ARG BUILD_IMAGE=debian:12
ARG RUNTIME_IMAGE=debian:12-slim

FROM ${BUILD_IMAGE} AS build
# python3-pip and npm fetch the pinned third-party protos at configure time.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config ccache python3 python3-pip nodejs npm \
      ca-certificates protobuf-compiler protobuf-compiler-grpc libprotobuf-dev \
      libgrpc++-dev libabsl-dev libpq-dev libssl-dev libcurl4-openssl-dev \
      prometheus-cpp-dev libzstd-dev tzdata libtcmalloc-minimal4 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The whole source tree (less what .dockerignore leaves out): CMakeLists.txt
# globs its source folders, so a list of them here would go stale.
COPY . .
# Only mdc-server, without the test suites (MDC_TESTS=OFF: no GoogleTest); the
# gateway has its own image. CMakeLists.txt requires a `go` program for the
# gateway target, which this build never runs, so /bin/true stands in for it.
# ccache's folder is a build cache: a rebuild after a small change compiles
# only what changed.
RUN --mount=type=cache,target=/root/.cache/ccache \
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMDC_TESTS=OFF -DGO_PROGRAM=/bin/true \
 && cmake --build build --target mdc-server \
 && strip build/mdc-server

FROM ${RUNTIME_IMAGE}
# The shared libraries mdc-server links (and nothing to build with).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libgrpc++1.51 libprotobuf32 libabsl20220623 libpq5 libssl3 libcurl4 \
      libprometheus-cpp-core1.0 libprometheus-cpp-pull1.0 libtcmalloc-minimal4 libzstd1 \
      tzdata ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin mdc
COPY --from=build /src/build/mdc-server /usr/local/bin/mdc-server
USER mdc
ENV MDC_GRPC_ADDR=0.0.0.0:50051 \
    MDC_METRICS_ADDR=0.0.0.0:9464
EXPOSE 50051 9464
# `mdc-server health` asks the server's gRPC health service (service "") on
# the port of MDC_GRPC_ADDR and exits 0 only when it answers SERVING: the
# server opens its port after migrations and the admin bootstrap, and says
# NOT_SERVING while its database is unreachable or it drains.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/mdc-server", "health"]
# SIGTERM makes the server drain calls in flight before it exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/mdc-server"]

# syntax=docker/dockerfile:1
# mdc-gateway: generated and built with the Go toolchain (the protoc plugins
# pinned by gateway/go.mod, the googleapis protos from
# scripts/fetch-googleapis.sh), with the dashboard (web/, built with Node.js
# from the OpenAPI document the first stage generates) embedded; run on
# Debian 12 slim as an unprivileged user.
#   docker build -f docker/gateway.Dockerfile -t mdc-gateway .
#
# The build arguments name the stages' images; scripts/test-containers.sh
# passes images it made itself (no registry there).

# Debian 12 with Go at /usr/local/go and on PATH. gateway/go.mod's `go` line
# decides the minimum; an older image would have to download a newer toolchain.
ARG GO_IMAGE=golang:1.26-bookworm
# Debian 12 with node and npm on PATH. The dashboard's build (Vite 8) needs
# Node.js 20.19 or later.
ARG NODE_IMAGE=node:20-bookworm
ARG RUNTIME_IMAGE=debian:12-slim

FROM ${GO_IMAGE} AS build
# libprotobuf-dev holds the well-known types (google/protobuf/*.proto).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      protobuf-compiler libprotobuf-dev python3 python3-pip \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/fetch-googleapis.sh scripts/
RUN scripts/fetch-googleapis.sh /googleapis
COPY gateway/go.mod gateway/go.sum gateway/
RUN cd gateway && go mod download
COPY CMakeLists.txt ./
COPY proto proto
COPY gateway gateway
RUN --mount=type=cache,target=/root/.cache/go-build \
    gateway/build.sh /out /googleapis --generate-only

# The dashboard, typed from the OpenAPI document generated above.
FROM ${NODE_IMAGE} AS web
WORKDIR /src
COPY clients/typescript clients/typescript
COPY web web
COPY --from=build /src/gateway/internal/openapi/openapi.json gateway/internal/openapi/openapi.json
RUN mkdir -p gateway/internal/webui/dist && bash web/build.sh /tmp/build

FROM build AS gateway
COPY --from=web /src/gateway/internal/webui/dist gateway/internal/webui/dist
RUN --mount=type=cache,target=/root/.cache/go-build \
    gateway/build.sh /out /googleapis

FROM ${RUNTIME_IMAGE}
# The gateway is one Go binary; curl is its health check.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin mdc
COPY --from=gateway /out/mdc-gateway /usr/local/bin/mdc-gateway
USER mdc
ENV MDC_HTTP_ADDR=0.0.0.0:8080 \
    MDC_GRPC_ADDR=server:50051
EXPOSE 8080 9465
# /health is 200 while any of its servers is SERVING (docs/api.md, Health).
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/health"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/mdc-gateway"]

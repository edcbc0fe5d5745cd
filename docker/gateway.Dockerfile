# syntax=docker/dockerfile:1
# mdc-gateway: generated and built with the Go toolchain (the protoc plugins
# pinned by gateway/go.mod, the googleapis protos from
# scripts/fetch-googleapis.sh), with the dashboard (web/, built with Node.js
# from the OpenAPI document the first stage generates) embedded; run on
# Debian 12 slim.
#   docker build -f docker/gateway.Dockerfile -t mdc-gateway .

# gateway/go.mod's `go` line decides the minimum; an older image would have to
# download a newer toolchain.
ARG GO_IMAGE=golang:1.26-bookworm
# The dashboard's build (Vite 8) needs Node.js 20.19 or later.
ARG NODE_IMAGE=node:20-bookworm

FROM ${GO_IMAGE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      protobuf-compiler python3 python3-pip \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/fetch-googleapis.sh scripts/
RUN scripts/fetch-googleapis.sh /googleapis
COPY gateway/go.mod gateway/go.sum gateway/
RUN cd gateway && go mod download
COPY proto proto
COPY gateway gateway
RUN gateway/build.sh /out /googleapis --generate-only

# The dashboard, typed from the OpenAPI document generated above.
FROM ${NODE_IMAGE} AS web
WORKDIR /src
COPY clients/typescript clients/typescript
COPY web web
COPY --from=build /src/gateway/internal/openapi/openapi.json gateway/internal/openapi/openapi.json
RUN mkdir -p gateway/internal/webui/dist && bash web/build.sh /tmp/build

FROM build AS gateway
COPY --from=web /src/gateway/internal/webui/dist gateway/internal/webui/dist
RUN gateway/build.sh /out /googleapis

FROM debian:12-slim
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
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/mdc-gateway"]

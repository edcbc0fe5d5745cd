# syntax=docker/dockerfile:1
# mdc-gateway: generated and built with the Go toolchain (the protoc plugins
# pinned by gateway/go.mod, the googleapis protos from
# scripts/fetch-googleapis.sh), run on Debian 12 slim.
#   docker build -f docker/gateway.Dockerfile -t mdc-gateway .

# gateway/go.mod's `go` line decides the minimum; an older image would have to
# download a newer toolchain.
ARG GO_IMAGE=golang:1.26-bookworm

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
RUN gateway/build.sh /out /googleapis

FROM debian:12-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin mdc
COPY --from=build /out/mdc-gateway /usr/local/bin/mdc-gateway
USER mdc
ENV MDC_HTTP_ADDR=0.0.0.0:8080 \
    MDC_GRPC_ADDR=server:50051
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/mdc-gateway"]

# TankWatch in one static binary on distroless (no shell, no package manager), run as a non-root user.
#   docker build -t tankwatch:local --build-arg VERSION=$(git describe --always) .
#   docker run -p 8080:8080 -p 8808:8808 -p 8809:8809 -v tankwatch-data:/data tankwatch:local
# deploy/compose.yaml runs three of these on PostgreSQL with Mosquitto and NATS (README "Deployment files").

# 1. The console: web/dist, embedded into the binary by the webdist build tag.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# 2. The server: pure Go (modernc SQLite, pgx), so CGO off gives a static binary.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -tags webdist \
      -ldflags "-s -w -X tankwatch/internal/app.Version=${VERSION}" -o /out/tankwatch ./cmd/tankwatch \
 && mkdir -p /out/data

# 3. The image: the binary, CA certificates (online geocoding) and an empty data folder owned by nonroot.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tankwatch /usr/local/bin/tankwatch
COPY --from=build --chown=65532:65532 /out/data /data
# Listen on every interface inside the container (the binary's defaults are 127.0.0.1).
ENV TANKWATCH_DATA=/data \
    TANKWATCH_HTTP=0.0.0.0:8080 \
    TANKWATCH_JT808=0.0.0.0:8808 \
    TANKWATCH_JT1078=0.0.0.0:8809
USER 65532:65532
VOLUME ["/data"]
# 8080 HTTP (console, API, /ws/live, /mqtt), 8808 JT/T 808 terminals, 8809 JT/T 1078 video (TCP)
EXPOSE 8080 8808 8809
ENTRYPOINT ["/usr/local/bin/tankwatch"]
CMD ["serve"]

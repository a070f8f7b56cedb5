#!/usr/bin/env bash
# Regenerates the chat message code from proto/chat.proto: Go (proto/chatpb) and TypeScript
# (web/src/proto). Needs protoc (Debian: apt-get install protobuf-compiler), Go, and web/node_modules
# (protoc-gen-es). The generated files are committed; builds and tests never run this.
set -euo pipefail
cd "$(dirname "$0")/../proto"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" go install google.golang.org/protobuf/cmd/protoc-gen-go
protoc --plugin=protoc-gen-go="$bin/protoc-gen-go" --go_out=chatpb --go_opt=paths=source_relative \
  --plugin=protoc-gen-es=../web/node_modules/.bin/protoc-gen-es --es_out=../web/src/proto --es_opt=target=ts \
  chat.proto

#!/usr/bin/env bash
# Regenerates the chat message code from proto/chat.proto: Go (proto/chatpb) and TypeScript
# (web/src/proto). Needs Go and web/node_modules (buf and protoc-gen-es come from there).
set -euo pipefail
cd "$(dirname "$0")/../proto"
../web/node_modules/.bin/buf generate

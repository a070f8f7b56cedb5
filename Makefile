# TankWatch: `make run` and `make test` are the two commands (see README.md).
GO        ?= go
NPM       ?= npm
BIN       := bin/tankwatch
HTTP_ADDR ?= 127.0.0.1:8080

.PHONY: run build web web-deps test test-go test-web test-e2e e2e-build lint fmt clean

run: build
	./$(BIN) serve --demo --http $(HTTP_ADDR)

build: web
	$(GO) build -tags webdist -o $(BIN) ./cmd/tankwatch

# A node_modules that is a symbolic link (a worktree sharing another checkout's packages) is never
# reinstalled: npm ci would empty the directory it points to, under every checkout that uses it.
web-deps:
	@if [ -L web/node_modules ]; then exit 0; fi; \
	if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then \
		cd web && $(NPM) ci --no-audit --no-fund; fi

web: web-deps
	cd web && $(NPM) run build

# test-go, test-web and the e2e build run side by side (SIDE_BY_SIDE=0: one after the other), each printed
# whole when it ends (scripts/side-by-side.sh); the e2e files, whose pages need the cores, after them (D85).
test: web-deps
	MAKE="$(MAKE)" scripts/side-by-side.sh test-go test-web e2e-build
	cd web && $(NPM) run e2e

# Tests that -race skips, run without it: stack sizes are only meaningful without -race, and the
# data-heavy tests (dbtest.DataHeavy: months of seeded trips or a year of rollups, twenty times slower under
# -race) are single-goroutine data checks (DECISIONS D76, D116). internal/app's TestDataHeavyTestsAreRun keeps
# both lists whole.
NORACE_TESTS := ^(TestSessionStacksStaySmall|TestOverviewDemoHistory|TestOverviewStatistic|TestOverviewReport|TestPagingIndexMatchesThePlainQuery|TestLiveRollupEqualsRebuild|TestRunningRangesEqualDailySums|TestMonthlyPathEqualsDaily|TestDrillDownEqualsSum|TestLevelChartStore)$$
NORACE_PKGS := ./internal/jt808/gateway ./internal/app ./internal/waybill/bill ./internal/lock/lockstats ./internal/stats ./internal/tank/trend

# go vet checks every package and its tests first, so go test does not repeat its own vet pass (-vet=off).
# The tests that start real `tankwatch serve` processes (TestKillNode, TestClusterSoak) take the binary
# from TANKWATCH_BIN: built here once, after vet has compiled its packages (only the link is left), rather
# than by `go build` inside the test while the -race run loads both cores (DECISIONS D103).
# -race turns on the compiler's pointer checks (checkptr) in every package; in modernc's SQLite, C translated to
# Go with unsafe pointer arithmetic on every row, they were a fifth of the Go tests' CPU. They stay on for our own
# code; the race detector itself stays on everywhere (DECISIONS D134).
TEST_BIN := bin/tankwatch-test
RACE_GCFLAGS := modernc.org/...=-d=checkptr=0
test-go:
	$(GO) vet ./...
	$(GO) build -o $(TEST_BIN) ./cmd/tankwatch
	TANKWATCH_BIN="$(CURDIR)/$(TEST_BIN)" $(GO) test -race -gcflags='$(RACE_GCFLAGS)' -count=1 -vet=off -timeout 20m ./...
	$(GO) test -count=1 -vet=off -run '$(NORACE_TESTS)' $(NORACE_PKGS)

test-web: web-deps
	cd web && $(NPM) run lint && $(NPM) run typecheck && $(NPM) test

# The login route's JavaScript budget (250 KB gzipped, D83) is checked on the build the e2e tests use.
# The bundle is built without `tsc -b` (npm run build's first half): type checking is test-web's job,
# and `make test` has just done it (DECISIONS D49). The e2e files run three at a time (E2E_CONCURRENCY; D76).
test-e2e: e2e-build
	cd web && $(NPM) run e2e

e2e-build: web-deps
	cd web && npx vite build
	$(GO) build -tags webdist -o $(BIN) ./cmd/tankwatch
	cd web && node scripts/login-budget.mjs

lint:
	gofmt -l $$(git ls-files '*.go')
	$(GO) vet ./...
	cd web && $(NPM) run lint

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin web/dist

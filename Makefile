# tableplay — see README.md. `make test` is what CI runs.
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

.PHONY: run test unit race wasm-core bench fmt fmt-check vet check-deps fuzz

ADDR ?= 127.0.0.1:10002

## run: build the native server and serve the API and the page on ADDR
run:
	$(GO) build -o bin/tableplay ./cmd/tableplay
	./bin/tableplay serve --addr $(ADDR) --web .

## test: everything a fresh machine needs to pass before a change lands
test: fmt-check vet check-deps unit race wasm-core

unit:
	$(GO) test -count=1 ./...

## race: the store's concurrency and model tests under the race detector
race:
	$(GO) test -count=1 -race -run 'TestConcurrency|TestModel|TestTransaction' ./core/store

## wasm-core: core must compile for the browser too
wasm-core:
	GOOS=js GOARCH=wasm $(GO) build ./core/...

## bench: performance figures on one core (never part of `make test`;
## the store's fixture of 1,000,000 entities takes about 20 s to build)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/...

## check-deps: the import direction of DESIGN.md
check-deps:
	./scripts/check-deps

## fuzz: run each fuzz target for FUZZTIME (seeds alone run in `make test`)
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseLiteral$$' -fuzztime $(FUZZTIME) ./core/edm
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeEntity$$' -fuzztime $(FUZZTIME) ./core/odata
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./core/filter
	$(GO) test -run '^$$' -fuzz '^FuzzRestore$$' -fuzztime $(FUZZTIME) ./core/store
	$(GO) test -run '^$$' -fuzz '^FuzzParseKeyPredicate$$' -fuzztime $(FUZZTIME) ./core/rest
	$(GO) test -run '^$$' -fuzz '^FuzzParseBatch$$' -fuzztime $(FUZZTIME) ./core/rest
	$(GO) test -run '^$$' -fuzz '^FuzzParseAuthorization$$' -fuzztime $(FUZZTIME) ./core/rest

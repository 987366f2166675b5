# tableplay — see README.md. `make test` is what CI runs.
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

.PHONY: measure run wasm test unit race wasm-core e2e bench fmt fmt-check vet check-deps fuzz

ADDR ?= 127.0.0.1:10002

## run: build the engine for the browser and the native server, and serve
## the API and the page on ADDR
run: wasm
	$(GO) build -o bin/tableplay ./cmd/tableplay
	./bin/tableplay serve --addr $(ADDR) --web .

## wasm: the engine for the browser in web/build/ (generated, git-ignored):
## syumai/workers' glue (workers-assets-gen wipes its folder, so it runs
## first) and app.wasm
wasm:
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -runtime=browser -o web/build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o web/build/app.wasm ./wasm

## test: everything a fresh machine needs to pass before a change lands
test: fmt-check vet check-deps unit race wasm-core e2e

## e2e: the page in Debian's Chromium, driven by playwright-core (npm ci first)
e2e: wasm
	$(GO) build -o bin/tableplay ./cmd/tableplay
	node --test --test-concurrency=1 e2e/

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

## measure: browser figures (wasm size, time to ready, call costs) and the
## wasm's biggest symbols; not part of make test
measure: wasm
	$(GO) build -o bin/tableplay ./cmd/tableplay
	node e2e/measure.mjs
	@echo "packages contributing most to app.wasm (go tool nm -size, before linking):"
	@./scripts/wasm-sizes 15

fmt:
	gofmt -w $$(git ls-files '*.go')

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/... ./wasm/...

## check-deps: the import direction of docs/architecture.md
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
	$(GO) test -run '^$$' -fuzz '^FuzzParseSAS$$' -fuzztime $(FUZZTIME) ./core/rest
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./core/tablecsv

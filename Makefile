# tableplay — see README.md. `make test` is what CI runs.
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

.PHONY: go-tests unit-rest image image-test release deploy-check perf-bins azurite record-azurite worker worker-entry run-worker measure perf scale run build site npm wasm test unit race wasm-core e2e bench fmt fmt-check vet check-deps fuzz fresh-check setup-run setup-test

# The browser build compiles without inlining, except Go's runtime: app.wasm
# is about 99 KB (7.8 %) smaller as brotli, for 2-7 % more engine CPU in the
# page (a point read about 25 %, 4 µs; measured with the package benchmarks
# built for js/wasm under Node). Not inlining the runtime either would save
# 40 KB more for 15-80 % more CPU. Exported for scripts/wasm-sizes.
export WASM_GCFLAGS := -gcflags=all=-l -gcflags=runtime= -gcflags=internal/runtime/...=

ADDR ?= 127.0.0.1:10002
SITE ?= site/public

## run: build the one binary (the page inside) and serve the API and the
## page on ADDR
run: build
	./bin/tableplay serve --addr $(ADDR)

## build: bin/tableplay carrying the static site (go:embed, build tag
## tableplay_site); one file to copy
build: site
	$(GO) build -tags tableplay_site -o bin/tableplay ./cmd/tableplay

## worker: workers/ built for workerd and wrangler (workers/build/,
## git-ignored): the room object (room.js) with its engine (room.wasm,
## js/wasm) and Go's glue beside it, the modules workers/wrangler.rooms.toml
## deploys, and the entry Worker (make worker-entry)
worker: setup-run web/build/go-glue.js worker-entry
	@mkdir -p workers/build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o workers/build/room.wasm ./workers/room/engine
	@cmp -s web/build/go-glue.js workers/build/go-glue.js || cp web/build/go-glue.js workers/build/go-glue.js
	@cmp -s workers/room/room.js workers/build/room.js || cp workers/room/room.js workers/build/room.js

## deploy-check: the pinned wrangler's deploy --dry-run (offline) for the
## rooms script and the entry Worker with the repo's own configs
## (workers/wrangler.rooms.toml, workers/wrangler.toml), each script's size
## held to Cloudflare's limit (docs/hosting.md)
deploy-check: setup-test worker site
	./scripts/deploy-check

## run-worker: serve workers/ locally with workerd (the pinned npm package)
## on ADDR, the rooms' storage in DATA and the site (SITE) at /, until
## stopped; ROOM_SECRET (the rooms' keys derive from it) is a fixed
## development value unless set
DATA ?= workers/data
ROOM_SECRET ?= tableplay-local-development-only
run-worker: worker site setup-test
	@mkdir -p $(DATA)
	ROOM_SECRET='$(ROOM_SECRET)' node_modules/.bin/workerd serve workers/config.capnp config --socket-addr http=$(ADDR) \
		--directory-path room-data=$(abspath $(DATA)) --directory-path site=$(abspath $(SITE))

# The version and source a release or an image is stamped with.
# Expanded once, so that a commit made while a release builds cannot give
# the files one version and the binaries another.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
VERSION := $(VERSION)
REVISION := $(REVISION)
SOURCE ?= https://github.com/tableplay/tableplay
STAMP := -ldflags='-s -w -X main.buildVersion=$(VERSION)'

## image: the OCI image without Docker (scripts/image, go-containerregistry
## pinned in its own go.mod): the static binary with the site, a non-root
## user, /data, port 10002, entrypoint tableplay serve --addr 0.0.0.0:10002
## --data /data, version and source labels; written as an OCI layout
## (bin/image/oci) and a tarball for docker load / podman load
## (bin/image/tableplay-image.tar). IMAGE_ARCH picks the architecture.
IMAGE_ARCH ?= $(shell PATH="$(PATH)" $(GO) env GOARCH)
image: site
	CGO_ENABLED=0 GOOS=linux GOARCH=$(IMAGE_ARCH) $(GO) build -trimpath -tags tableplay_site $(STAMP) -o bin/image/tableplay ./cmd/tableplay
	cd scripts/image && $(GO) run . -bin ../../bin/image/tableplay -version '$(VERSION)' -revision '$(REVISION)' \
		-source '$(SOURCE)' -arch $(IMAGE_ARCH) -out ../../bin/image

## image-test: reads the image back and runs it in a network namespace of
## its own, reached by its service name with the Python SDK (as root)
image-test: image
	cd scripts/image && TABLEPLAY_REQUIRE_ALL=1 IMAGE_DIR=$(CURDIR)/bin/image $(GO) test -count=1 ./...

## release: tableplay for the five platforms below in bin/release, each
## stamped with VERSION (tableplay --version) and the site inside, and their
## SHA256SUMS
RELEASE_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
release: site
	rm -rf bin/release && mkdir -p bin/release
	@for p in $(RELEASE_PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "release: $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -tags tableplay_site $(STAMP) \
			-o bin/release/tableplay-$(VERSION)-$$os-$$arch$$ext ./cmd/tableplay || exit 1; done
	cd bin/release && sha256sum tableplay-* >SHA256SUMS && cat SHA256SUMS

## site: the playground as a static folder for any static host (SITE)
site: wasm
	./scripts/build-site $(SITE)

## npm: the embed as an npm package in NPM (site/npm) and its tarball
## (site/tableplay-VERSION.tgz, npm pack); docs/embedding.md shows the CDN
## form. NPM_VERSION sets the version (else 0.0.0-v and the site's version).
NPM ?= site/npm
npm: site
	./scripts/build-npm $(NPM) $(SITE)
	cd $(dir $(NPM)) && npm pack --silent ./$(notdir $(NPM))

## wasm: the engine for the browser in web/build/ (generated, git-ignored):
## go-glue.js (Go's glue as a module that defines no globals), app.wasm and
## the .br and .gz of both, and unbrotli.wasm (and its .gz), the brotli
## decoder for hosts that compress nothing. app.wasm is replaced only when it
## changed, so the slow brotli -11 runs only then.
wasm: setup-run web/build/go-glue.js
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags='-s -w' -o bin/app.wasm ./wasm
	@cmp -s bin/app.wasm web/build/app.wasm || cp bin/app.wasm web/build/app.wasm
	@$(MAKE) --no-print-directory web/build/app.wasm.br web/build/app.wasm.gz web/build/go-glue.js.br web/build/go-glue.js.gz web/build/unbrotli.wasm.gz

# The glue is the wasm_exec.js of the Go that builds app.wasm (they must
# match), rewritten by scripts/wasmglue into a module.
GLUE_SRC := $(shell PATH="$(PATH)" $(GO) env GOROOT)/lib/wasm/wasm_exec.js
web/build/go-glue.js: $(GLUE_SRC) scripts/wasmglue/main.go Makefile
	@mkdir -p web/build
	$(GO) run ./scripts/wasmglue $(GLUE_SRC) $@

web/build/app.wasm.br: web/build/app.wasm
	brotli -q 11 -c $< >$@

web/build/app.wasm.gz: web/build/app.wasm
	gzip -9 -n -c $< >$@

# A host that compresses nothing sends app.wasm.br as it is, and browsers
# undo brotli only as a Content-Encoding: web/unbrotli.js undoes it with
# brotli's own C decoder (third_party/brotli, v1.2.0) built here to wasm
# with no imports, its memory capped at 64 MiB (a hostile stream fails
# there). Debian's clang 14 and wasi-libc (scripts/setup) build it.
UNBROTLI_SRC := scripts/unbrotli/unbrotli.c $(wildcard third_party/brotli/c/*/*.c third_party/brotli/c/*/*.h third_party/brotli/c/include/brotli/*.h)
web/build/unbrotli.wasm: $(UNBROTLI_SRC) Makefile
	@mkdir -p web/build
	clang-14 --target=wasm32-wasi --sysroot=/usr -Oz -flto -mbulk-memory -Ithird_party/brotli/c/include \
		-nostartfiles -Wl,--no-entry -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=65536 -Wl,--max-memory=67108864 \
		-o $@ scripts/unbrotli/unbrotli.c third_party/brotli/c/dec/*.c third_party/brotli/c/common/*.c

web/build/unbrotli.wasm.gz: web/build/unbrotli.wasm
	gzip -9 -n -c $< >$@

# The glue's variants let tableplay serve --web send it compressed, as the
# binary's own page does: web/engine.js takes a compressed glue as the sign
# that the server compresses the engine too.
web/build/go-glue.js.br: web/build/go-glue.js
	brotli -q 11 -c $< >$@

web/build/go-glue.js.gz: web/build/go-glue.js
	gzip -9 -n -c $< >$@

setup-run:
	@./scripts/setup run

setup-test:
	@./scripts/setup test

## test: everything a fresh machine needs to pass before a change lands
test: setup-test fmt-check vet check-deps check-docs go-tests wasm-core e2e deploy-check image-test

# Under make test and make unit a test whose dependency is missing (npm
# packages, python3, curl) fails; plain go test skips it with a line saying
# what to run (docs/testing.md).
test unit unit-rest go-tests race: export TABLEPLAY_REQUIRE_ALL := 1

## e2e: the page in Chromium, driven by playwright-core: the checkout served
## by bin/tableplay --web, the binary's own page, the static site, and the
## site in rooms served by workerd (workers/build/, make worker), one file
## at a time: three at once saturated the 2 cores (load 13), took longer
## in all (1,251 s for make test against about 1,050) and pushed a room
## test past its 40 s bound
e2e: setup-test build worker
	node --test --test-concurrency=1 e2e/

## worker-entry: the rooms' entry Worker (Go on syumai/workers) in
## workers/build/entry/: app.wasm, syumai's wasm_exec.js (Go's, reading the
## request's context) and our worker.mjs (one Go instance per isolate)
worker-entry:
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o workers/build/entry
	rm workers/build/entry/runtime.mjs
	cp workers/entry/worker.mjs workers/build/entry/worker.mjs
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o workers/build/entry/app.wasm ./workers/entry

## fresh-check: clone the committed tree into a temporary directory and run
## make test and make run there, with nothing else done (not part of make
## test, which it runs)
fresh-check:
	./scripts/fresh-check

unit:
	$(GO) test -count=1 ./...

## go-tests: every Go test once, as make test runs them: the packages of
## RACE_PKGS under the race detector only (make race), the rest plainly,
## side by side — both mostly wait on servers, browsers and SDK programs,
## so the two share the machine's cores
go-tests:
	@$(MAKE) --no-print-directory -j2 --output-sync=target unit-rest race

unit-rest:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v -x -F "$$($(GO) list $(RACE_PKGS))")

## race: the packages whose code runs on many goroutines, every test of
## them, under the race detector; each package is bounded by -timeout.
## Measured on the shared 2-core machine while other builds ran: 1,323 s
## wall in all (core/store 605 s, workers/entry 447 s, core/h1 195 s,
## persist 74 s); core/store alone on a quieter machine, 60 s
RACE_PKGS := ./core/store/... ./persist ./core/h1 ./workers/entry
race:
	$(GO) test -count=1 -race -timeout 15m $(RACE_PKGS)

## wasm-core: core must compile for the browser too
wasm-core:
	GOOS=js GOARCH=wasm $(GO) build ./core/...

## bench: performance figures on one core (never part of `make test`;
## the store's fixture of 1,000,000 entities takes about 20 s to build)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./...

## perf-bins: the server and the driver perf and scale run.
perf-bins:
	$(GO) build -o bin/tableplay-api ./cmd/tableplay
	$(GO) build -o bin/perf ./cmd/perf

## azurite: the Azurite pinned in cmd/perf/azurite, installed on first use
## (perf and scale with Azurite beside, record-azurite).
azurite:
	@if [ ! -d cmd/perf/azurite/node_modules/azurite ]; then \
		cd cmd/perf/azurite && npm ci --no-audit --no-fund; fi

## perf: tableplay serve driven by the Go SDK, phase by phase: throughput,
## p50/p99 and server CPU per operation (not part of make test). PERF_VS=azurite
## runs Azurite side by side (installed here from cmd/perf/azurite, pinned);
## PERF_FLAGS passes -n, -c, -runs, -phases, -profile (see go run ./cmd/perf -h)
PERF_VS ?=
PERF_FLAGS ?=
perf: perf-bins $(if $(filter azurite,$(PERF_VS)),azurite)
	./bin/perf -server bin/tableplay-api $(if $(PERF_VS),-vs $(PERF_VS)) $(PERF_FLAGS)

## scale: tableplay serve loaded with SCALE_N entities (comma-separated:
## 100k,300k,1M) through the Go SDK, batches of 100, in memory and with
## --data: load rate, RSS, peak, live heap, bytes per entity, data directory,
## restart time and memory after it (not part of make test; 1M needs ~10 GB
## free). SCALE_VS=azurite loads Azurite in memory side by side (as perf).
## After each in-memory load, SCALE_MIXED (0: none) of 16 clients' random
## point reads, merges and partition queries: ops/s, p50/p99, memory after.
SCALE_N ?= 100k,300k,1M
SCALE_VS ?=
SCALE_MIXED ?= 5m
scale: perf-bins $(if $(filter azurite,$(SCALE_VS)),azurite)
	./bin/perf -server bin/tableplay-api -scale $(SCALE_N) -scale-mixed $(SCALE_MIXED) $(if $(SCALE_VS),-vs $(SCALE_VS))

## record-azurite: rewrite core/rest/testdata/azurite, Azurite 3.37's answers
## (pinned in cmd/perf/azurite, installed on first use) to the requests of the
## transcripts the azurite-3.37 profile replays; not part of make test, which
## replays the recordings without Azurite
record-azurite: azurite
	$(GO) test -count=1 -run '^TestRecordAzurite$$' ./core/rest \
		-record-azurite $(CURDIR)/cmd/perf/azurite/node_modules/azurite/dist/src/table/main.js

## measure: browser figures (bytes on the wire and time to ready on
## loopback and throttled, a second visit; call costs; the embed's bootstrap,
## Run to interactive and memory; the query view; the embed from another
## origin on a compressing and on a plain static host) and what each package adds
## to app.wasm; not part of make test
measure: setup-test build
	node e2e/measure-network.mjs
	node e2e/measure.mjs
	node e2e/measure-embed.mjs
	node e2e/measure-hosts.mjs
	@./scripts/wasm-sizes 20

fmt:
	gofmt -w $$(git ls-files '*.go')

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd scripts/image && $(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/... ./wasm/... ./workers/room/engine ./workers/entry

## check-docs: every <table-playground> example of the docs and the demo
## page still starts and still answers as its expect attribute says
check-docs:
	$(GO) run ./cmd/tableplay check-docs docs/ README.md embed.html

## check-deps: the import direction of docs/architecture.md
check-deps:
	./scripts/check-deps

## fuzz: run each fuzz target for FUZZTIME (seeds alone run in `make test`);
## the targets are what `go test -list '^Fuzz'` finds in each package, so a
## new one is run without being named here
FUZZTIME ?= 30s
fuzz:
	@targets=$$($(GO) test -list '^Fuzz' ./... | awk '/^Fuzz/ { t[n++] = $$1; next } /^ok/ { for (i = 0; i < n; i++) print $$2 "=" t[i]; n = 0 }'); \
	[ -n "$$targets" ] || { echo "fuzz: go test -list found no targets"; exit 1; }; \
	echo "$$(echo "$$targets" | wc -w) fuzz targets"; \
	for pt in $$targets; do \
		pkg=$${pt%%=*}; target=$${pt#*=}; echo "$$pkg $$target"; \
		$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

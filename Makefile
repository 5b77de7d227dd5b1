# Sidekicks — the two commands that set everything up: `make run` and `make test`.
GO       ?= go
BIN      := bin/sidekicks
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
FUZZTIME ?= 10s
BENCHCOUNT ?= 6

.PHONY: all build run test unit e2e bench fuzz vet clean responsiveness profile man

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

run: build
	./$(BIN) --config examples/demo.yaml

# The manual page, made from the help by the program itself (LANG=C: in English).
man: build
	mkdir -p docs/man
	LANG=C LC_ALL= LC_MESSAGES= ./$(BIN) man > docs/man/sidekicks.1

vet:
	$(GO) vet ./...

# Every test: vet, the unit and integration tests with the race detector, then the
# end-to-end tests that drive the real binary in tmux. -count=1: the e2e tests build the
# binary themselves, which the test cache cannot see, so no result is ever reused. The
# container tests run on a Docker engine of their own, which .ci/with-engine starts where
# dockerd is installed (they skip, saying why, where it cannot). The tests that run the Claude
# agents (claude-code-acp on the local stand-in API, package anthropicstub) install them from
# npm once, into $SIDEKICKS_TEST_NPM_CACHE (default: the user's cache folder,
# sidekicks-tests/npm); without node, npm or the registry they are skipped, saying why.
test: vet
	./.ci/with-engine $(GO) test -race -count=1 -timeout 20m ./...

# Benchmarks, -count ≥ 5 so that benchstat can compare runs: make bench > new.txt
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count $(BENCHCOUNT) -timeout 60m ./...

# The real binary in tmux (200×60): key echo against cat's, idle and during a flood, the
# worst key after a 1 MB word and after a resize, memory per displayed line. Needs tmux.
responsiveness: build
	$(GO) run ./tools/responsiveness -bin $(BIN)

# Where the time and memory of the real binary go, for a developer: the binary built with
# -tags profile (profile.go) under the responsiveness script, its profiles in bin/profile:
# cpu.pprof and trace.out of the idle keys and the flood, heapN.pprof and memN.json before and
# after each round of the memory test (1-2, 3-4), keys.txt the time each key's frame took inside.
profile:
	$(GO) build -tags profile -o bin/sidekicks-profile .
	mkdir -p bin/profile
	$(GO) run ./tools/responsiveness -bin bin/sidekicks-profile -profile bin/profile

# A short run of every fuzz target (FUZZTIME each).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$target"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf bin

# ARGoS-Go. `make run` builds the simulator and runs a shipped experiment
# headless; `make test` is what CI runs (.ci/run).

GO       ?= go
BUILD    ?= build
ARGOS    := $(BUILD)/argos
EXP      ?= experiments/diffusion_10.argos
FUZZTIME ?= 30s

.PHONY: all build run test lint deps-check fuzz bench bench-quick clean

all: build

build:
	$(GO) build -o $(ARGOS) ./cmd/argos

# Runs the experiment headless from build/, so the text visualization
# (diffusion_10.tsv) lands there.
run: build
	cd $(BUILD) && ./argos -z -c $(abspath $(EXP))
	@echo "text visualization written to $(BUILD)/$$(sed -n 's/.*<text file="\([^"]*\)".*/\1/p' $(EXP))"

test: lint deps-check
	$(GO) test -race -count=1 -timeout 40m ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The dependency rule of docs/architecture.md.
deps-check:
	@scripts/check-deps.sh

fuzz:
	$(GO) test -run=XXX -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./config/
	$(GO) test -run=XXX -fuzz=FuzzNew -fuzztime=$(FUZZTIME) ./simulator/
	$(MAKE) fuzz-robot FUZZTIME=$(FUZZTIME)

# The scalability benchmark of docs/benchmarks.md: prints the BENCH lines.
bench: build
	scripts/bench.sh $(ARGOS)

# Go micro-benchmarks (ns/op, allocs/op).
bench-quick:
	$(GO) test -run=XXX -bench=. -benchmem ./...

-include toolchains/robots.mk

clean:
	rm -rf $(BUILD)

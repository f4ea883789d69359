# Builds the engine for OpenBench, which runs `make EXE=NAME` in a fresh
# clone and then `./NAME bench`: the default target is a release build
# copied to $(EXE) (NAME.exe on Windows). See docs/openbench.md.
#
#   make                         target/release/antichess copied to ./antichess
#   make EXE=dev-1234            the same, to ./dev-1234
#   make EXE=x RUSTFLAGS='-C target-cpu=native'   tuned to the building CPU
#   make bench                   the build's `bench` (last line: N nodes M nps)

EXE ?= antichess
CARGO ?= cargo

ifeq ($(OS),Windows_NT)
    SUFFIX := .exe
endif
OUT := $(EXE)$(if $(filter %.exe,$(EXE)),,$(SUFFIX))

.PHONY: default bench clean

default:
	$(CARGO) build --release --locked
	cp target/release/antichess$(SUFFIX) $(OUT)

bench: default
	$(abspath $(OUT)) bench

clean:
	$(CARGO) clean
	rm -f $(OUT)

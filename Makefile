# shotguard: build, test, demo, bench and install.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
STRICT := -Xswiftc -warnings-as-errors

.PHONY: all deps build release test demo bench install uninstall clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(STRICT)

release: deps
	$(SWIFT) build -c release $(STRICT)

# The test command of the README: every test, X tests on private Xvfb servers.
test: deps
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build

# The main job of the README: the whole pipeline on its own virtual display.
demo: release
	.build/release/shotguard demo --dir out/demo

bench: release
	scripts/bench.py

clean:
	rm -rf .build out

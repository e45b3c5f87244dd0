# shotguard: build, test, demo, bench and install.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
STRICT := -Xswiftc -warnings-as-errors

.PHONY: all deps build release test demo bench fuzz completions install uninstall clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(STRICT)

# The Swift runtime linked in: the installed binary runs without the toolchain's libraries,
# and starts in 6 ms instead of 9 (fewer shared objects to load and relocate).
RELEASE := -c release --static-swift-stdlib

release: deps
	$(SWIFT) build $(RELEASE) $(STRICT)

# The test command of the README: every test, X tests on private Xvfb servers.
test: deps
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build

# The main job of the README: the whole pipeline on its own virtual display.
demo: release
	.build/release/shotguard demo --dir out/demo

bench: release
	scripts/bench.py

# libFuzzer targets (Fuzz/) for the decoders and parsers of outside input and the PNG encoder, each run for
# FUZZ_SECONDS on its seed corpus; fails on any crash, leak, out-of-memory or timeout.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) scripts/fuzz.sh

# The completion scripts in completions/ are what 'shotguard completions SHELL' prints, written
# from the command model: run this after adding or changing a command or an option.
completions:
	$(SWIFT) build $(STRICT)
	.build/debug/shotguard completions bash > completions/shotguard.bash
	.build/debug/shotguard completions zsh > completions/_shotguard
	.build/debug/shotguard completions fish > completions/shotguard.fish

clean:
	rm -rf .build Fuzz/.build out

# Install paths. DESTDIR stages a package; PREFIX=/usr suits a distribution package.
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
# XDG autostart is read from $XDG_CONFIG_DIRS (/etc/xdg), whatever the PREFIX.
AUTOSTARTDIR ?= /etc/xdg/autostart
# The binary to install; built with 'swift build -c release --static-swift-stdlib' when missing.
BINARY ?= .build/release/shotguard

INSTALLED = $(BINDIR)/shotguard $(MANDIR)/man1/shotguard.1 $(MANDIR)/man5/shotguard-regions.5 \
	$(BASHCOMPDIR)/shotguard $(ZSHCOMPDIR)/_shotguard $(FISHCOMPDIR)/shotguard.fish \
	$(SYSTEMDUSERDIR)/shotguard.service $(AUTOSTARTDIR)/shotguard.desktop

install:
	@if [ ! -x "$(BINARY)" ]; then echo "$(SWIFT) build $(RELEASE)"; $(SWIFT) build $(RELEASE); fi
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" \
		"$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)" \
		"$(DESTDIR)$(SYSTEMDUSERDIR)" "$(DESTDIR)$(AUTOSTARTDIR)"
	install -m 755 "$(BINARY)" "$(DESTDIR)$(BINDIR)/shotguard"
	install -m 644 man/shotguard.1 "$(DESTDIR)$(MANDIR)/man1/shotguard.1"
	install -m 644 man/shotguard-regions.5 "$(DESTDIR)$(MANDIR)/man5/shotguard-regions.5"
	install -m 644 completions/shotguard.bash "$(DESTDIR)$(BASHCOMPDIR)/shotguard"
	install -m 644 completions/_shotguard "$(DESTDIR)$(ZSHCOMPDIR)/_shotguard"
	install -m 644 completions/shotguard.fish "$(DESTDIR)$(FISHCOMPDIR)/shotguard.fish"
	sed 's|^ExecStart=/usr/local/bin/shotguard|ExecStart=$(BINDIR)/shotguard|' packaging/shotguard.service \
		> "$(DESTDIR)$(SYSTEMDUSERDIR)/shotguard.service"
	chmod 644 "$(DESTDIR)$(SYSTEMDUSERDIR)/shotguard.service"
	install -m 644 packaging/shotguard.desktop "$(DESTDIR)$(AUTOSTARTDIR)/shotguard.desktop"

uninstall:
	for file in $(INSTALLED); do rm -f "$(DESTDIR)$$file"; done

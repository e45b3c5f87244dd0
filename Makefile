# shotguard: build, test, demo, bench and install.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
# Warnings are errors in the tests and CI (make test), never in a build for users or packagers.
STRICT := -Xswiftc -warnings-as-errors

.PHONY: all deps build release test demo bench fuzz completions install uninstall clean

all: build

# Installs the Debian packages that are missing; quiet and quick when none is.
deps:
	@scripts/install-deps.sh

# Building never installs packages: it names the ones missing and stops.
build:
	@scripts/install-deps.sh --check build
	$(SWIFT) build

# The Swift runtime linked in: the installed binary runs without the toolchain's libraries,
# and starts in 6 ms instead of 9 (fewer shared objects to load and relocate).
RELEASE := -c release --static-swift-stdlib

# The two programs only: building every target in release also builds the tests' support
# library, which imports XCTest, found in debug builds alone (sensing-probe is for make bench).
release:
	@scripts/install-deps.sh --check build
	$(SWIFT) build $(RELEASE) --product shotguard
	$(SWIFT) build $(RELEASE) --product shotguard-hold
	$(SWIFT) build $(RELEASE) --product sensing-probe

# The test command of the README: every test, X tests on private Xvfb servers.
test: deps
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build

# The main job of the README: the whole pipeline on its own virtual display.
demo: deps
	@$(MAKE) --no-print-directory release
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/shotguard" demo --dir out/demo

bench: deps
	@$(MAKE) --no-print-directory release
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

# Install paths. DESTDIR stages a package; PREFIX=/usr suits a distribution package, and a
# PREFIX in the home folder (PREFIX=~/.local) installs for one user, without root.
override PREFIX := $(patsubst ~%,$(HOME)%,$(PREFIX))
HOME_PREFIX := $(if $(HOME),$(filter $(HOME)/%,$(PREFIX)))
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# The user manager reads units from PREFIX/lib/systemd/user for /usr and /usr/local, and from
# ~/.local/share/systemd/user ($XDG_DATA_HOME) for one user.
SYSTEMDUSERDIR ?= $(if $(HOME_PREFIX),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
# The hold helper (root) and its system unit: only for a system-wide PREFIX (systemd reads system
# units from /usr/lib/systemd/system and /usr/local/lib/systemd/system); none for one user.
LIBEXECDIR ?= $(PREFIX)/libexec/shotguard
SYSTEMDSYSTEMDIR ?= $(if $(HOME_PREFIX),,$(PREFIX)/lib/systemd/system)
# The autostart entry always goes to DATADIR/shotguard, for a user to copy into
# ~/.config/autostart. AUTOSTART=1 also installs it where sessions start it: /etc/xdg/autostart
# (every user of the machine) or, for a PREFIX in the home folder, ~/.config/autostart.
AUTOSTART ?= 0
AUTOSTARTDIR ?= $(if $(HOME_PREFIX),$(or $(XDG_CONFIG_HOME),$(HOME)/.config),/etc/xdg)/autostart
# What install wrote and the folders it made, for uninstall; empty for a distribution package.
MANIFEST ?= $(DATADIR)/shotguard/installed
# The program that strips the installed binary; STRIP=true leaves that to the packaging.
STRIP ?= strip

INSTALL_PATHS = BINDIR="$(BINDIR)" MANDIR="$(MANDIR)" BASHCOMPDIR="$(BASHCOMPDIR)" ZSHCOMPDIR="$(ZSHCOMPDIR)" \
	FISHCOMPDIR="$(FISHCOMPDIR)" SYSTEMDUSERDIR="$(SYSTEMDUSERDIR)" SHAREDIR="$(DATADIR)/shotguard" \
	LIBEXECDIR="$(LIBEXECDIR)" SYSTEMDSYSTEMDIR="$(SYSTEMDSYSTEMDIR)" \
	AUTOSTARTDIR="$(AUTOSTARTDIR)" AUTOSTART="$(AUTOSTART)" MANIFEST="$(MANIFEST)" DESTDIR="$(DESTDIR)"

# Builds the release binaries and installs those, stripped: never whatever .build holds. The
# shotguard and shotguard-hold products alone: every target would include the tests' support
# library, which imports XCTest, found in debug builds only.
install:
	@scripts/install-deps.sh --check build
	$(SWIFT) build $(RELEASE) --product shotguard
	$(if $(SYSTEMDSYSTEMDIR),$(SWIFT) build $(RELEASE) --product shotguard-hold)
	$(INSTALL_PATHS) STRIP="$(STRIP)" packaging/install.sh install "$$($(SWIFT) build $(RELEASE) --show-bin-path)/shotguard"

# Removes what install wrote, then the folders it made once they are empty.
uninstall:
	$(INSTALL_PATHS) packaging/install.sh uninstall

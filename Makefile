# iconbadge — see HACKING.md. `make run` and `make test` do all the set-up on a fresh machine.
SWIFT ?= swift
PREFIX ?= /usr/local
BIN_DEBUG = .build/debug/iconbadge
BIN_RELEASE = .build/release/iconbadge
# Release builds are reproducible: two clean checkouts of one commit in two folders give
# the same bytes (make test-dist builds a second one to compare). scripts/release-build.sh
# says how: the build runs at one fixed path, with address-space randomisation off and a
# fixed environment, and the compilers map that path to "." (HACKING.md, Reproducible
# builds). The release binary carries no DWARF; linker/no-module-hash.ld does the rest.
SAMPLE = Fixtures/icons/folder-48x48.png
SAMPLE_LARGE = Fixtures/icons/user-trash-256x256.png
# LINKAGE=shared links Cairo, fontconfig, FriBidi and HarfBuzz as shared libraries, and stays so
# until LINKAGE=static (scripts/link-static-libs.sh); by default they are linked in.
export LINKAGE

.PHONY: all deps build release run test test-animation test-install golden docs bench install uninstall clean format lint \
	fuzz fuzz-smoke fuzz-build test-asan test-tsan deb dist test-dist

all: build

deps:
	@scripts/install-deps.sh

# iconbadge-loader (loader/, scripts/build-loader.sh) goes beside each binary built: the
# static iconbadge decodes SVG and the gdk-pixbuf formats through it.
LOADER = scripts/build-loader.sh

build: deps
	$(SWIFT) build
	$(LOADER) .build/debug

release: deps
	SWIFT="$(SWIFT)" scripts/release-build.sh
	$(LOADER) .build/release

# The main job on the bundled sample: a "3" and a "99+" badge, at 1x and 3x.
run: build
	@mkdir -p out
	$(BIN_DEBUG) $(SAMPLE) --value 3 -o out/folder-3.png
	$(BIN_DEBUG) $(SAMPLE) --value 150 -o out/folder-99plus.png
	$(BIN_DEBUG) $(SAMPLE_LARGE) --value 3 --scale 3 -o out/trash-3@3x.png
	$(BIN_DEBUG) $(SAMPLE_LARGE) --value 150 --scale 3 -o out/trash-99plus@3x.png
	$(BIN_DEBUG) $(SAMPLE_LARGE) --value 3 --scale 3 --animate bounce --loop forever -o out/trash-3-bounce@3x.png
	@echo "wrote:"; for f in out/folder-3.png out/folder-99plus.png out/trash-3@3x.png out/trash-99plus@3x.png \
		out/trash-3-bounce@3x.png; do echo "  $$PWD/$$f"; done

# scripts/check-test-tools.sh stops here, with one line naming each missing tool and its
# Debian package, rather than let the tests that need it be skipped and the run pass.
test: deps
	@scripts/check-test-tools.sh
	$(SWIFT) build --build-tests
	$(LOADER) .build/debug
	$(SWIFT) test
	$(MAKE) test-animation
	$(MAKE) test-install

# The animations read by decoders that are not iconbadge's: Pillow (APNG, WebP), ffprobe
# and headless Chromium (the SVG's CSS animations at fixed times); tests/animation/check.py.
# Debian's python3, which python3-pil installs into (a python3 earlier on the PATH, such
# as pyenv's, would not see it).
test-animation: deps
	$(SWIFT) build --product iconbadge
	$(LOADER) .build/debug
	/usr/bin/python3 tests/animation/check.py $(BIN_DEBUG)

# Fuzzing (fuzz/README.md): each libFuzzer target for FUZZ_SECONDS under AddressSanitizer,
# seeded from fuzz/seeds, Fixtures/fuzz-regressions and Fixtures/corpus; crashes land in
# .build/fuzz/<target>/artifacts. fuzz-smoke is the CI run (FUZZ_SMOKE_SECONDS, 30 s each).
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 30

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh

fuzz-smoke: deps
	FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) fuzz/run.sh

fuzz-build: deps
	fuzz/run.sh --build-only

# The whole suite under AddressSanitizer, then the batch tests under ThreadSanitizer; the
# tests run the sanitized iconbadge binary too. Each sanitizer builds in its own folder
# so that neither rebuilds .build/debug. SWIFT_BACKTRACE=enable=no leaves crash reports
# to the sanitizer. Leak checking is off: every leak LeakSanitizer reports here is in
# fontconfig, Pango, Cairo or the test harness (fuzz/README.md, "Sanitizers"). A 32 MB
# quarantine instead of 256 keeps the corpus sweep's children under its 256 MiB budget.
SANITIZER_ENV = SWIFT_BACKTRACE=enable=no ICONBADGE_SANITIZER=1 \
	ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=32:$(ASAN_OPTIONS) TSAN_OPTIONS=halt_on_error=1:$(TSAN_OPTIONS)

test-asan: deps
	$(SANITIZER_ENV) $(SWIFT) build --build-tests --scratch-path .build/sanitizers/asan --sanitize=address
	$(LOADER) .build/sanitizers/asan/debug
	$(SANITIZER_ENV) $(SWIFT) test --skip-build --scratch-path .build/sanitizers/asan --sanitize=address
	$(MAKE) test-tsan

# ThreadSanitizer cannot see the Swift toolchain's Synchronization.Mutex when a thread has
# to wait for it (the slow path is futex calls in an uninstrumented library), and then
# reports every access the Mutex protects as a race. Tests/tsan/synchronization-mutex.c,
# preloaded into the tests and the iconbadge processes they start, tells it about those
# waits (it suppresses nothing; the file says how). The build runs without the preload.
TSAN_MUTEX = .build/sanitizers/libsynchronization-mutex-tsan.so
CLANG ?= clang

$(TSAN_MUTEX): Tests/tsan/synchronization-mutex.c
	@mkdir -p $(dir $@)
	$(CLANG) -O2 -fPIC -shared -Wall -Werror -o $@ $< -ldl

test-tsan: deps $(TSAN_MUTEX)
	$(SANITIZER_ENV) $(SWIFT) build --build-tests --scratch-path .build/sanitizers/tsan --sanitize=thread
	$(LOADER) .build/sanitizers/tsan/debug
	$(SANITIZER_ENV) LD_PRELOAD=$(CURDIR)/$(TSAN_MUTEX) \
		$(SWIFT) test --skip-build --scratch-path .build/sanitizers/tsan --sanitize=thread --filter 'Batch|DirectoryCheck|LargeCompare'

# Rewrites Fixtures/goldens from the current code. Look at the images before committing.
golden: deps
	$(SWIFT) build --build-tests
	$(LOADER) .build/debug
	ICONBADGE_UPDATE_GOLDENS=1 $(SWIFT) test --filter GoldenTests
	$(SWIFT) build
	.build/debug/iconbadge batch Fixtures/examples/goldens.json --check Fixtures/examples/goldens --update --quiet

# Re-renders the pictures of docs/gallery.txt, the man page, the manual's options reference
# and the help snapshots (scripts/docs.sh); tests check they are current.
docs: build
	scripts/docs.sh

bench: release
	@scripts/install-deps.sh --bench
	python3 bench/bench.py

# The release binary (static Swift stdlib), its man page and bash/zsh/fish completions,
# all generated by the binary from its option tables, and share/doc/iconbadge (the README,
# the manual and its pictures). `make uninstall` removes exactly these.
INSTALLED = bin/iconbadge libexec/iconbadge/iconbadge-loader share/man/man1/iconbadge.1 share/bash-completion/completions/iconbadge \
	share/zsh/site-functions/_iconbadge share/fish/vendor_completions.d/iconbadge.fish

install: release
	scripts/install.sh install "$(DESTDIR)$(PREFIX)" $(BIN_RELEASE)

uninstall:
	scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

# Installs into a temporary prefix, checks every file and the bash completion, uninstalls.
test-install: release
	scripts/test-install.sh $(BIN_RELEASE)

# The Debian package and the release tarball of the release binary, into DIST_OUT
# (scripts/package.sh): reproducible from a commit (SOURCE_DATE_EPOCH is the commit's
# time). `scripts/install-deps.sh --dist` adds dpkg-dev where it is missing.
DIST_OUT ?= out

deb: release
	@scripts/install-deps.sh --dist
	scripts/package.sh deb $(BIN_RELEASE) $(DIST_OUT)

dist: release
	@scripts/install-deps.sh --dist
	scripts/package.sh tarball $(BIN_RELEASE) $(DIST_OUT)

# Both, checked (scripts/test-dist.sh): lintian; built twice, the same bytes; the
# tarball's static binary in an empty root with /proc alone, and in clean Debian 11, 12
# and 13 roots (mmdebstrap, cached in .build/roots); the .deb installed with apt-get in
# Debian 12 and 13, the same pixels as this tree's binary, purged without a trace.
# Without network for the roots it says "test-dist: SKIPPED (...)" as its last line.
test-dist: release
	@scripts/install-deps.sh --test-dist
	scripts/test-dist.sh $(BIN_RELEASE) $(DIST_OUT)

clean:
	rm -rf .build out

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint -r Sources Tests Package.swift

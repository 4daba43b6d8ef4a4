# iconbadge — see README.md. `make run` and `make test` do all the set-up on a fresh machine.
SWIFT ?= swift
PREFIX ?= /usr/local
BIN_DEBUG = .build/debug/iconbadge
BIN_RELEASE = .build/release/iconbadge
RELEASE_FLAGS = -c release --static-swift-stdlib
SAMPLE = Fixtures/icons/folder-48x48.png
SAMPLE_LARGE = Fixtures/icons/user-trash-256x256.png

.PHONY: all deps build release run test golden docs bench install uninstall clean format lint

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The main job on the bundled sample: a "3" and a "99+" badge, at 1x and 3x.
run: build
	@mkdir -p out
	$(BIN_DEBUG) $(SAMPLE) --value 3 -o out/folder-3.png
	$(BIN_DEBUG) $(SAMPLE) --value 150 -o out/folder-99plus.png
	$(BIN_DEBUG) $(SAMPLE_LARGE) --value 3 --scale 3 -o out/trash-3@3x.png
	$(BIN_DEBUG) $(SAMPLE_LARGE) --value 150 --scale 3 -o out/trash-99plus@3x.png
	@echo "wrote:"; for f in out/folder-3.png out/folder-99plus.png out/trash-3@3x.png out/trash-99plus@3x.png; do echo "  $$PWD/$$f"; done

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Rewrites Fixtures/goldens from the current code. Look at the images before committing.
golden: deps
	ICONBADGE_UPDATE_GOLDENS=1 $(SWIFT) test --filter Golden

# Re-renders the README's pictures (docs/gallery.txt); a test checks they are current.
docs: build
	scripts/docs.sh

bench: deps
	@scripts/install-deps.sh --bench
	$(SWIFT) build $(RELEASE_FLAGS)
	python3 bench/bench.py

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN_RELEASE) $(DESTDIR)$(PREFIX)/bin/iconbadge

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/iconbadge

clean:
	rm -rf .build out

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint -r Sources Tests Package.swift

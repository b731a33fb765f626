# Two commands do everything on a fresh Debian machine: make demo, make test.
VENV := .venv
PY := $(VENV)/bin/python
export SDL_AUDIODRIVER ?= dummy
export PYGAME_HIDE_SUPPORT_PROMPT := 1
# The kill -9 loop's repetitions: a few in make test, the full 50 in make test-long; the
# PostgreSQL fault loop (server and room kiosk killed): 2 rounds in make test, 12 in test-long;
# the club game corrected on phones: 3 coups and 2 phones in make test, 12 coups and 3 phones.
LONG_CRASH_POINTS ?= 50
LONG_FAULT_POINTS ?= 12
LONG_STATIONS_COUPS ?= 12
# make test spreads the test files over this many processes (one per core, at most 4: each
# worker may start its own PostgreSQL and chromium); TEST_WORKERS=0 runs them in one process.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)

.PHONY: bootstrap demo kiosk test test-long bench lint lock lock-upgrade clean train-deps

# Debian font families of the training writers (vision/glyphs.py FONT_FAMILIES)
TRAIN_FONTS := fonts-bwht fonts-cabinsketch fonts-klee fonts-rufscript fonts-tomsontalks fonts-seto \
  fonts-kiloji fonts-fantasque-sans fonts-liberation fonts-freefont-ttf fonts-urw-base35 fonts-sil-charis \
  fonts-sil-gentiumplus fonts-cantarell fonts-open-sans fonts-hack fonts-firacode fonts-comfortaa \
  fonts-quicksand fonts-lato fonts-oxygen fonts-jura fonts-gnutypewriter

bootstrap:
	@bash scripts/bootstrap.sh

demo: bootstrap
	@bash scripts/demo.sh
	@echo 'ensuite, une vraie partie : .venv/bin/kiosk nouvelle ... ou make kiosk ARGS="nouvelle --joueurs joueurs.csv" (voir README)'

# make kiosk ARGS="nouvelle --temps 3:00 --joueurs joueurs.csv"
kiosk: bootstrap
	@$(VENV)/bin/kiosk $(ARGS)

# --dist loadfile: a file's tests stay together and in order (some share a module's game).
test: bootstrap
	SDL_VIDEODRIVER=dummy $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# The long repetitions of the tests marked « long » (the kill -9 loop: 50 kill points).
test-long: bootstrap
	SDL_VIDEODRIVER=dummy KIOSK_CRASH_POINTS=$(LONG_CRASH_POINTS) \
		KIOSK_FAULT_POINTS=$(LONG_FAULT_POINTS) KIOSK_STATIONS_COUPS=$(LONG_STATIONS_COUPS) \
		$(PY) -m pytest -m long

bench: bootstrap
	SDL_VIDEODRIVER=dummy $(PY) scripts/bench.py

# what retraining the glyph network needs (python -m vision entrainer): fonts, then .venv from
# the train lock (runtime + PyTorch + ONNX; make bootstrap goes back to the dev set)
train-deps:
	apt-get install -y -qq --no-install-recommends $(TRAIN_FONTS)
	LOCK=train bash scripts/bootstrap.sh

lint: bootstrap
	$(PY) -m ruff check .

# Pins pyproject.toml's ranges into requirements/*.txt (keeping pins that still fit),
# installs them into a new .venv, then runs the tests.
lock: bootstrap
	$(PY) scripts/lock.py
	@$(MAKE) --no-print-directory test

# The same, taking the newest releases pyproject.toml allows.
lock-upgrade: bootstrap
	$(PY) scripts/lock.py --upgrade
	@$(MAKE) --no-print-directory test

clean:
	rm -rf $(VENV) out .pytest_cache

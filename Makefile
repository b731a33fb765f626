# Two commands do everything on a fresh Debian machine: make demo, make test.
VENV := .venv
PY := $(VENV)/bin/python
export SDL_AUDIODRIVER ?= dummy

.PHONY: bootstrap demo test bench lint clean

bootstrap:
	@bash scripts/bootstrap.sh

demo: bootstrap
	@bash scripts/demo.sh

test: bootstrap
	SDL_VIDEODRIVER=dummy $(PY) -m pytest

bench: bootstrap
	SDL_VIDEODRIVER=dummy $(PY) scripts/bench.py

lint: bootstrap
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) out .pytest_cache

# Everything a fresh machine needs: `make serve` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PORT   ?= 8000
export NO_MKDOCS_2_WARNING := 1
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: install chromium site serve test bench clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Browser tests drive Debian's chromium: Playwright's own browser download cannot reach its host.
chromium:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

site: $(STAMP)
	$(PY) -m generator build
	$(VENV)/bin/mkdocs build --strict --quiet

serve: site
	@echo "Serving site/ on http://localhost:$(PORT)/"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory site

# One pytest-xdist worker per core: while one Chromium lays a page out, the other core runs the
# model's tests or another page. Work stealing: a worker that runs dry takes tests queued for the
# other, so the run does not end on one worker's long browser tests (560 s against 583-601 s, 2 cores).
test: $(STAMP) chromium site
	$(PY) -m pytest -n auto --dist worksteal

bench: $(STAMP) chromium site
	$(PY) -m benchmarks

clean:
	rm -rf site docs/index.md docs/model.md docs/data docs/charts docs/vendor docs/downloads test-artifacts

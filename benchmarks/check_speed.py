"""Time `check` (load..check stages) and peak memory on synthetic corpora of 1,000 and 10,000 records.

Run by hand: python3 benchmarks/check_speed.py [SIZES...]. Not part of the test suite.
Derive computes every (scheme, target) cell, so the corpus caps schemes and targets (see make_corpus).
"""
from __future__ import annotations

import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.make_corpus import make  # noqa: E402
from generators import load, schemas, validate  # noqa: E402
from generators.build import check_tree  # noqa: E402
from generators.link import link_records  # noqa: E402


def measure(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "corpus"
        make(n, root)
        count = sum(1 for _ in (root / "records").rglob("*.yaml"))
        schemas.load_schemas(root / "schema")  # schema meta-check is cached per process, as in a long-lived serve
        stages = {}
        load._CACHE.clear()
        start = time.perf_counter()
        records, _ = load.load_tree(root)
        stages["load"] = time.perf_counter() - start
        schema_set, _ = schemas.load_schemas(root / "schema")
        start = time.perf_counter()
        validate.validate_records(records, schema_set)
        stages["validate"] = time.perf_counter() - start
        start = time.perf_counter()
        link_records(records, schema_set)
        stages["link"] = time.perf_counter() - start
        load._CACHE.clear()  # a cold run, as on the command line
        start = time.perf_counter()
        _, problems = check_tree(root)
        total = time.perf_counter() - start
        start = time.perf_counter()
        check_tree(root)  # a warm run, as on a `mkdocs serve` rebuild with no file changed
        warm = time.perf_counter() - start
        load._CACHE.clear()
        tracemalloc.start()
        check_tree(root)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        detail = ", ".join(f"{k} {v:.2f}s" for k, v in stages.items())
        print(f"{count:>6} records: check {total:.2f}s cold, {warm:.2f}s warm ({detail}); peak traced memory {peak:.0f} MiB; "
              f"{len(problems)} problems")


if __name__ == "__main__":
    for size in [int(a) for a in sys.argv[1:]] or [1000, 10000]:
        measure(size)

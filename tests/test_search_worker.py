"""Pages point the theme's search configuration at the repairing worker (generators/search_worker.py)."""
from __future__ import annotations

import json

from generators.search_worker import through_repaired_worker

THEME = "assets/javascripts/workers/search.a7633da7.min.js"


def _page(config: dict) -> str:
    return f'<body><p>x</p><script id="__config" type="application/json">{json.dumps(config)}</script></body>'


def test_the_search_worker_is_the_wrapper_with_the_theme_worker_after_the_hash():
    for prefix in ("", "../", "../../", "/atlas/"):
        page = through_repaired_worker(_page({"base": "..", "search": prefix + THEME, "tags": None}))
        config = json.loads(page.split('application/json">')[1].split("</script>")[0])
        assert config == {"base": "..", "search": f"{prefix}javascripts/search-worker.js#{THEME}", "tags": None}
        assert page.startswith("<body><p>x</p>") and page.endswith("</script></body>")


def test_a_page_without_the_theme_search_stays_as_it_is():
    for page in ("<p>no config</p>", _page({"search": "elsewhere.js"}), _page({"base": "."}),
                 '<script id="__config" type="application/json">{not json</script>', _page(["search"])):
        assert through_repaired_worker(page) == page

"""The site search runs the theme's worker through docs/javascripts/search-worker.js, which repairs the lunr it
bundles (docs/javascripts/lunr-repair.js says what is wrong): each page's theme configuration names that script,
with the theme worker's path after a '#'. Pure function of a page's HTML."""
from __future__ import annotations

import json
import re

_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)
THEME_WORKERS = "assets/javascripts/workers/"
WRAPPER = "javascripts/search-worker.js"


def through_repaired_worker(html: str) -> str:
    """The page with its search worker pointed at the wrapper; unchanged when the page has no theme configuration
    or the configuration names no theme search worker."""
    found = _CONFIG.search(html)
    if found is None:
        return html
    try:
        search = json.loads(found.group(2)).get("search")
    except (ValueError, AttributeError):
        return html
    if not isinstance(search, str) or THEME_WORKERS not in search:
        return html
    at = search.rindex(THEME_WORKERS)
    pointed = f"{search[:at]}{WRAPPER}#{search[at:]}"
    config = found.group(2).replace(json.dumps(search), json.dumps(pointed), 1)
    return f"{html[:found.start(2)]}{config}{html[found.end(2):]}"

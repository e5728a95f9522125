"""The site's public address: from `ATLAS_SITE_URL` (or mkdocs.yml's `site_url`), never a made-up host.

With an address, MkDocs writes canonical links and a sitemap of absolute URLs. Without one, no page
claims an address: no canonical links, and no sitemap (a sitemap needs absolute URLs; MkDocs would
otherwise list bare paths).
"""
from __future__ import annotations

from collections.abc import Mapping

from mkdocs.config import config_options
from mkdocs.config.base import ValidationError

ENVIRONMENT_VARIABLE = "ATLAS_SITE_URL"


def site_address(configured: str | None, environ: Mapping[str, str]) -> tuple[str | None, str]:
    """(the address with a trailing slash or None, an error message or ''); the environment wins over the config."""
    value = (environ.get(ENVIRONMENT_VARIABLE) or "").strip() or (configured or "").strip()
    if not value:
        return None, ""
    try:
        return config_options.URL(is_dir=True).validate(value), ""  # type: ignore[no-untyped-call]
    except ValidationError as error:
        return None, f"{ENVIRONMENT_VARIABLE}={value!r}: {error} (for example https://atlas.example.net/)"

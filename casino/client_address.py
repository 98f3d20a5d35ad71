"""Where the client's address is read behind the documented proxy (deploy/nginx): one rule for
the login lockout (django-axes through django-ipware) and the API's throttles (DRF).

nginx appends the address it saw to X-Forwarded-For (``$proxy_add_x_forwarded_for``), so with
N trusted proxies in front of the app the client is the N-th entry from the right, which is
what DRF's ``NUM_PROXIES = N`` reads. django-ipware counts only the proxies *listed* in the
header (the last proxy is the socket's peer, not listed), so it is given N - 1, and is not
strict: whatever a client wrote to the left of what the proxies appended is skipped instead of
making ipware drop the header and fall back to the proxy's own address. With no trusted proxy
only the socket's address counts and X-Forwarded-For is ignored, whatever it says.
"""

from __future__ import annotations


def axes_ipware_settings(trusted_proxy_count: int) -> dict:
    """The ``AXES_IPWARE_*`` settings for ``trusted_proxy_count`` proxies in front of the app."""
    if trusted_proxy_count:
        return {"AXES_IPWARE_PROXY_COUNT": trusted_proxy_count - 1,
                "AXES_IPWARE_META_PRECEDENCE_ORDER": ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]}
    return {"AXES_IPWARE_PROXY_COUNT": None, "AXES_IPWARE_META_PRECEDENCE_ORDER": ["REMOTE_ADDR"]}

"""Signing a request to a webhook trigger's URL, for senders written in Python (and tests).

``X-Skillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>``, the
HMAC key being the signing secret exactly as the API showed it. Sign the exact bytes you send: a
re-serialised body does not verify.
"""

from __future__ import annotations

import hashlib
import hmac
import time

SIGNATURE_HEADER = "X-Skillflow-Signature"


def sign_webhook(secret: str, body: bytes | str, timestamp: int | None = None) -> str:
    """The header's value for ``body``, signed now (or at ``timestamp``, in unix seconds)."""
    t = int(time.time()) if timestamp is None else timestamp
    raw = body.encode("utf-8") if isinstance(body, str) else body
    mac = hmac.new(secret.encode("utf-8"), f"{t}.".encode("ascii") + raw, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"

"""The SDK's transport: one request description (:class:`Call`), its mapping to httpx, the
decoding of answers into models or :mod:`skillflow.errors`, and the retry policy.

Only idempotent GETs are retried, on 429 and 503, after the ``Retry-After`` the API sent (or a
short backoff when it sent none); a POST, PUT or DELETE is never retried on its own. The token
travels only in the ``Authorization`` header and never reaches an error message.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Generic, TypedDict, TypeVar
from urllib.parse import quote

import httpx
from pydantic import ValidationError

from .errors import SkillflowClientError, api_error

T = TypeVar("T")

#: Statuses after which an idempotent request is tried again.
RETRY_STATUSES = frozenset({429, 503})

__version__ = "0.1.0"


@dataclass(frozen=True)
class Call(Generic[T]):
    """One API request and how to read its 2xx answer: ``parse(status, json_body)``."""

    method: str
    path: str
    parse: Callable[[int, Any], T]
    params: Mapping[str, str | None] = field(default_factory=dict)
    json: Any = None
    content: str | None = None
    content_type: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: False for the guest routes: no Authorization header is sent.
    authenticated: bool = True
    #: An absolute URL to fetch instead of ``path`` (a download link, its own credential): sent
    #: without the Authorization header, since it may name another origin.
    url: str | None = None
    #: True: a 2xx body is handed to ``parse`` as its bytes, not parsed as JSON.
    raw: bool = False


def seg(value: str) -> str:
    """Encodes one path segment."""
    return quote(value, safe="")


def normalise_base_url(url: str) -> str:
    """Strips a trailing slash and ``/v1``, so ``http://h:8080`` and ``http://h:8080/v1/`` both work."""
    url = url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date); None when absent or bad."""
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - datetime.now(timezone.utc)).total_seconds(), 0.0)


class ClientOptions(TypedDict, total=False):
    """Options of :class:`skillflow.Client` and :class:`skillflow.AsyncClient`."""

    #: Seconds per request (connect, write, read). Default 120.
    timeout: float
    #: How often a GET answered 429 or 503 is tried again. Default 2.
    max_retries: int
    #: The longest ``Retry-After`` (seconds) still waited for; a longer one is raised. Default 30.
    max_retry_wait: float
    #: Extra headers sent with every request.
    headers: Mapping[str, str]


class Transport:
    """What the sync and async transports share: building requests, reading answers, retries."""

    def __init__(self, base_url: str, token: str | None, owns_client: bool, options: ClientOptions) -> None:
        self.base_url = normalise_base_url(base_url)
        self._token = token
        #: False when the caller passed its own httpx client: the SDK does not close it.
        self.owns_client = owns_client
        self._max_retries = options.get("max_retries", 2)
        self._max_retry_wait = options.get("max_retry_wait", 30.0)
        self._headers = {"accept": "application/json", "user-agent": f"skillflow-python/{__version__}"}
        self._headers.update(options.get("headers", {}))

    def _request(self, client: httpx.Client | httpx.AsyncClient, call: Call[Any]) -> httpx.Request:
        headers = {**self._headers, **call.headers}
        if call.authenticated and self._token and call.url is None:
            headers["authorization"] = f"Bearer {self._token}"
        content: str | None = call.content
        if call.content is not None:
            headers["content-type"] = call.content_type or "application/json"
        elif call.json is not None:
            content = json.dumps(call.json, separators=(",", ":"), ensure_ascii=False)
            headers["content-type"] = "application/json"
        params = {k: v for k, v in call.params.items() if v is not None}
        url = call.url if call.url is not None else self.base_url + call.path
        return client.build_request(call.method, url, params=params, headers=headers, content=content)

    def _failure(self, err: httpx.HTTPError) -> SkillflowClientError:
        if isinstance(err, httpx.TimeoutException):
            return SkillflowClientError(
                "TIMEOUT", f"The skillflow API at {self.base_url} did not answer in time."
            )
        reason = str(err) or type(err).__name__
        return SkillflowClientError(
            "CONNECTION_FAILED", f"Cannot reach the skillflow API at {self.base_url}: {reason}"
        )

    def _retry_delay(self, call: Call[Any], response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before trying ``call`` again, or None to take this answer."""
        if call.method != "GET" or response.status_code not in RETRY_STATUSES or attempt >= self._max_retries:
            return None
        asked = parse_retry_after(response.headers.get("retry-after"))
        delay = asked if asked is not None else 0.5 * 2**attempt
        return None if delay > self._max_retry_wait else delay

    def _outcome(self, call: Call[T], response: httpx.Response) -> T:
        if call.raw and response.is_success:
            return call.parse(response.status_code, response.content)
        body: Any = None
        if response.content:
            try:
                body = response.json()
            except ValueError:
                if response.is_success:
                    raise SkillflowClientError(
                        "INVALID_RESPONSE",
                        f"The API answered HTTP {response.status_code} with a body that is not JSON.",
                    ) from None
        if not response.is_success:
            raise api_error(
                response.status_code, body, parse_retry_after(response.headers.get("retry-after"))
            )
        try:
            return call.parse(response.status_code, body)
        except ValidationError as err:
            paths = sorted({".".join(str(p) for p in e["loc"]) for e in err.errors(include_input=False)})
            raise SkillflowClientError(
                "INVALID_RESPONSE",
                f"The answer of {call.method} {call.path.split('?')[0]} does not match the SDK's models "
                f"(at {', '.join(paths[:5])}); regenerate or upgrade the SDK.",
            ) from None


class SyncTransport(Transport):
    """Sends calls with an :class:`httpx.Client`."""

    def __init__(
        self, base_url: str, token: str | None, client: httpx.Client | None, options: ClientOptions
    ) -> None:
        super().__init__(base_url, token, client is None, options)
        self.client = client or httpx.Client(timeout=options.get("timeout", 120.0))

    def close(self) -> None:
        if self.owns_client:
            self.client.close()

    def send(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self.client.send(self._request(self.client, call))
            except httpx.HTTPError as err:
                raise self._failure(err) from err
            delay = self._retry_delay(call, response, attempt)
            if delay is None:
                return self._outcome(call, response)
            attempt += 1
            time.sleep(delay)


class AsyncTransport(Transport):
    """Sends calls with an :class:`httpx.AsyncClient`."""

    def __init__(
        self, base_url: str, token: str | None, client: httpx.AsyncClient | None, options: ClientOptions
    ) -> None:
        super().__init__(base_url, token, client is None, options)
        self.client = client or httpx.AsyncClient(timeout=options.get("timeout", 120.0))

    async def aclose(self) -> None:
        if self.owns_client:
            await self.client.aclose()

    async def send(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = await self.client.send(self._request(self.client, call))
            except httpx.HTTPError as err:
                raise self._failure(err) from err
            delay = self._retry_delay(call, response, attempt)
            if delay is None:
                return self._outcome(call, response)
            attempt += 1
            await asyncio.sleep(delay)

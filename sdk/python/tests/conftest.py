"""Fixtures: the real stack as ``npm start`` runs it (scripts/start.mjs: Temporal dev server,
worker, API and simulators) on free loopback ports with a temporary DATA_DIR, started once per
session and stopped at the end; and a small scripted HTTP server on 127.0.0.1 for the transport
tests (retries, Retry-After, malformed answers), which the stack cannot produce on demand.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

#: The repository root (sdk/python/tests → ../../..).
ROOT = Path(__file__).resolve().parents[3]
#: The Node.js that runs the stack, the CLI and the JS SDK (the vitest runner passes its own).
NODE = os.environ.get("SKILLFLOW_NODE") or shutil.which("node") or "node"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stack:
    url: str
    token: str
    data_dir: str
    #: The private half of the chat key registered for the dev key's owner (runs' chat steps need one).
    chat_private_key: str


@pytest.fixture(scope="session")
def stack() -> Iterator[Stack]:
    data_dir = tempfile.mkdtemp(prefix="skillflow-pytest-")
    port = free_port()
    env = {
        **os.environ,
        "DATA_DIR": data_dir,
        "PORT": str(port),
        "TEMPORAL_DEV_PORT": str(free_port()),
        "TEMPORAL_UI_PORT": str(free_port()),
        "TEMPORAL_ADDRESS": "",
        "DATABASE_URL": "",
        "SKILLFLOW_ENCRYPTION_KEY": "",
        "LOG_LEVEL": "warn",
    }
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [NODE, str(ROOT / "scripts" / "start.mjs")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    key_file = Path(data_dir) / "dev-api-key"

    def output() -> str:
        log.seek(0)
        return log.read().decode(errors="replace")

    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"npm start exited early:\n{output()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the stack was not healthy within 180 s:\n{output()}")
            try:
                healthy = httpx.get(f"{url}/v1/health", timeout=5).status_code == 200
            except httpx.HTTPError:
                healthy = False
            # The dev key is written right after the API listens; the banner comes after it.
            if healthy and key_file.exists() and "skillflow is running" in output():
                break
            time.sleep(0.5)
        token = key_file.read_text().strip()
        # Chat messages are sealed to the owner's chat keys: without one, a run's chat step fails.
        from skillflow import Client, generate_chat_key_pair

        pair = generate_chat_key_pair()
        with Client(url, token=token) as client:
            client.chats.register_key(pair.public_key, "pytest")
        yield Stack(url=url, token=token, data_dir=data_dir, chat_private_key=pair.private_key)
    finally:
        proc.terminate()
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        log.close()
        shutil.rmtree(data_dir, ignore_errors=True)
    assert code == 0, f"npm start exited with {code}"


# A scripted HTTP server for the transport tests.

Reply = tuple[int, dict[str, str], bytes]


@dataclass
class Seen:
    """One request the scripted server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Scripted:
    """Answers each request with the next reply of ``replies`` (the last one repeats)."""

    url: str
    replies: list[Reply] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)

    def script(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.seen.clear()


def reply(
    status: int, body: Any = None, headers: dict[str, str] | None = None, raw: bytes | None = None
) -> Reply:
    """A JSON reply (or ``raw`` bytes)."""
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
    return status, {"content-type": "application/json", **(headers or {})}, data


def envelope(code: str, message: str, **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details}}


@pytest.fixture()
def scripted() -> Iterator[Scripted]:
    state = Scripted(url="")

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            state.seen.append(
                Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            index = min(len(state.seen), len(state.replies)) - 1
            status, headers, data = state.replies[index]
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = _answer

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def normalise(value: Any) -> Any:
    """Ids and timestamps differ per call; everything else must be identical."""
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, dict):
        return {
            k: f"<{k}>" if k in ("task_id", "call_id") or k.endswith("_at") else normalise(v)
            for k, v in value.items()
        }
    return value


def run_node(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Runs Node.js in the repository (the CLI, the JS SDK) with ``env`` over a clean environment."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SKILLFLOW_API_KEY", "SKILLFLOW_URL")}
    return subprocess.run(
        [NODE, *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120
    )

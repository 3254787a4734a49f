"""Retries, Retry-After, request shapes and malformed answers, against a scripted HTTP server on
127.0.0.1 (the real stack cannot answer 429 or 503 on demand)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from conftest import Scripted, envelope, reply

from skillflow import (
    AsyncClient,
    Client,
    InternalServerError,
    RateLimitError,
    ServiceUnavailableError,
    SkillflowClientError,
    models,
)

TASK = {
    "task_id": "t1",
    "kind": "skill_call",
    "status": "running",
    "definition": None,
    "skill": "hosting.search_domains",
    "trigger": None,
    "started_at": "2025-01-01T00:00:00.000Z",
    "finished_at": None,
    "steps": [],
    "result": None,
    "error": None,
    "billing": {"billed_to": {"type": "owner", "id": "owner_1"}, "request_items": 1, "credits": 1},
    "rerun_of": None,
    "reruns": [],
    "links": {"self": "/v1/tasks/t1", "temporal_ui": "http://127.0.0.1:1"},
}
LIMITED = envelope("RATE_LIMITED", "Too many requests for this key.", limit="standard")


def test_a_get_is_retried_on_429_and_503_after_retry_after(scripted: Scripted) -> None:
    scripted.script(
        reply(429, LIMITED, {"retry-after": "0"}),
        reply(503, envelope("UNAVAILABLE", "Try again."), {"retry-after": "1"}),
        reply(200, TASK),
    )
    started = time.monotonic()
    with Client(scripted.url, "sf_t") as client:
        task = client.tasks.get("t1")
    assert isinstance(task, models.Task) and task.status == "running"
    assert [s.path for s in scripted.seen] == ["/v1/tasks/t1"] * 3
    assert time.monotonic() - started >= 1.0


def test_a_get_gives_up_after_max_retries_with_the_envelope_and_retry_after(scripted: Scripted) -> None:
    scripted.script(reply(429, LIMITED, {"retry-after": "0"}))
    with Client(scripted.url, "sf_t", max_retries=2) as client, pytest.raises(RateLimitError) as info:
        client.workflows.list()
    e = info.value
    assert (e.status, e.code, e.message, e.details, e.retry_after) == (
        429,
        "RATE_LIMITED",
        "Too many requests for this key.",
        {"limit": "standard"},
        0.0,
    )
    assert len(scripted.seen) == 3


def test_a_retry_after_longer_than_max_retry_wait_is_raised_at_once(scripted: Scripted) -> None:
    scripted.script(reply(503, envelope("UNAVAILABLE", "Later."), {"retry-after": "120"}))
    with Client(scripted.url, "sf_t") as client, pytest.raises(ServiceUnavailableError) as info:
        client.tasks.get("t1")
    assert (info.value.code, info.value.retry_after) == ("UNAVAILABLE", 120.0)
    assert len(scripted.seen) == 1


@pytest.mark.parametrize("status", [429, 503])
def test_a_post_is_never_retried(scripted: Scripted, status: int) -> None:
    scripted.script(reply(status, LIMITED, {"retry-after": "0"}), reply(200, TASK))
    with (
        Client(scripted.url, "sf_t") as client,
        pytest.raises((RateLimitError, ServiceUnavailableError)) as info,
    ):
        client.tasks.cancel("t1")
    assert (info.value.status, info.value.retry_after) == (status, 0.0)
    assert [(s.method, s.path) for s in scripted.seen] == [("POST", "/v1/tasks/t1/cancel")]


def test_the_async_client_retries_gets_only(scripted: Scripted) -> None:
    async def main() -> tuple[models.Task, int]:
        async with AsyncClient(scripted.url, "sf_t") as client:
            scripted.script(reply(429, LIMITED, {"retry-after": "0"}), reply(200, TASK))
            task = await client.tasks.get("t1")
            scripted.script(reply(429, LIMITED, {"retry-after": "0"}), reply(200, TASK))
            with pytest.raises(RateLimitError):
                await client.tasks.cancel("t1")
            return task, len(scripted.seen)

    task, posts = asyncio.run(main())
    assert task.task_id == "t1" and posts == 1


def test_requests_carry_the_token_bodies_and_queries(scripted: Scripted) -> None:
    valid = reply(200, {"valid": True, "diagnostics": [], "steps": 1, "outline": {"steps": []}})
    scripted.script(
        reply(200, {"embed_id": "emb_1", "skill": "a.b", "previews": [{"title": "x"}]}),
        valid,
        valid,
        reply(200, {"results": [], "previews": [], "call_id": "call_2"}),
        reply(200, {"results": [], "previews": []}),
    )
    with Client(scripted.url + "/v1/", "sf_secret") as client:
        got = client.embeds.download("emb_1", "preview")
        client.workflows.validate("title: x\n")
        client.workflows.validate({"title": "x"})
        client.apps.hosting.search_domains({"requests": [{"query": "cedar"}]}, team_id="team_1")
        client.anonymous.call(
            "hosting", "search_domains", {"requests": [{"query": "q"}]}, anonymous_id="g" * 16
        )
    assert got == {"embed_id": "emb_1", "skill": "a.b", "previews": [{"title": "x"}]}
    embed, yaml, obj, skill, guest = scripted.seen
    assert (embed.method, embed.path, embed.headers["authorization"]) == (
        "GET",
        "/v1/embeds/emb_1/file?format=preview",
        "Bearer sf_secret",
    )
    assert (yaml.headers["content-type"], yaml.body) == ("application/yaml", b"title: x\n")
    assert (obj.headers["content-type"], json.loads(obj.body)) == ("application/json", {"title": "x"})
    assert (skill.path, json.loads(skill.body)) == (
        "/v1/apps/hosting/skills/search_domains?team_id=team_1",
        {"requests": [{"query": "cedar"}]},
    )
    assert guest.path == "/v1/anonymous/apps/hosting/skills/search_domains"
    assert "authorization" not in guest.headers and guest.headers["x-skillflow-anonymous-id"] == "g" * 16


def test_malformed_answers_are_client_errors(scripted: Scripted) -> None:
    with Client(scripted.url, "sf_t") as client:
        scripted.script(reply(200, raw=b"<html>"))
        with pytest.raises(SkillflowClientError) as not_json:
            client.tasks.get("t1")
        assert (not_json.value.code, str(not_json.value)) == (
            "INVALID_RESPONSE",
            "The API answered HTTP 200 with a body that is not JSON.",
        )
        scripted.script(reply(200, {**TASK, "status": 7}))
        with pytest.raises(SkillflowClientError) as shape:
            client.tasks.get("t1")
        assert shape.value.code == "INVALID_RESPONSE"
        assert "at status" in str(shape.value)
        scripted.script(reply(500, raw=b"oops"))
        with pytest.raises(InternalServerError) as bare:
            client.tasks.get("t1")
        assert (bare.value.status, bare.value.code) == (500, "UNEXPECTED_RESPONSE")


def test_wait_times_out_and_reports_progress(scripted: Scripted) -> None:
    scripted.script(reply(200, TASK))
    seen: list[str] = []
    with Client(scripted.url, "sf_t") as client, pytest.raises(SkillflowClientError) as info:
        client.tasks.wait("t1", timeout=0.3, interval=0.1, on_progress=lambda t: seen.append(t.status))
    assert (info.value.code, str(info.value)) == ("WAIT_TIMEOUT", "Task t1 is still running after 0.3 s.")
    assert len(seen) >= 2 and set(seen) == {"running"}


def test_an_unreachable_api_is_a_connection_error() -> None:
    with Client("http://127.0.0.1:1", "sf_secret") as client, pytest.raises(SkillflowClientError) as info:
        client.tasks.get("t1")
    assert info.value.code == "CONNECTION_FAILED"
    assert str(info.value).startswith("Cannot reach the skillflow API at http://127.0.0.1:1: ")
    assert "sf_secret" not in str(info.value)

"""The synchronous client against the real stack: skills, discovery, tasks, workflows and
schedules, keys, embeds, the guest routes, and errors that carry the API's whole envelope."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from conftest import ROOT, Stack

from skillflow import (
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    SkillCallAccepted,
    SkillflowApiError,
    UnprocessableEntityError,
    models,
    sign_webhook,
    to_dict,
)

EXAMPLE = (ROOT / "definitions" / "examples" / "domain-ideas.yaml").read_text()
SCHEDULED = (ROOT / "definitions" / "examples" / "daily-domain-watch.yaml").read_text()


@pytest.fixture()
def client(stack: Stack) -> Iterator[Client]:
    with Client(stack.url, stack.token) as c:
        yield c


def rest(stack: Stack, method: str, path: str, **kwargs: object) -> httpx.Response:
    headers = {"authorization": f"Bearer {stack.token}"}
    return httpx.request(method, f"{stack.url}{path}", headers=headers, timeout=60, **kwargs)  # type: ignore[arg-type]


def envelope_of(e: SkillflowApiError) -> dict[str, object]:
    return {"error": {"code": e.code, "message": e.message, "details": e.details}}


def test_skill_methods_are_snake_case_and_unknown_names_resolve_dynamically(client: Client) -> None:
    res = client.apps.hosting.search_domains({"requests": [{"query": "cedar", "tlds": ["com"]}]})
    assert isinstance(res, models.HostingSearchDomainsResult)
    assert res.results[0].query == "cedar"
    # camelCase and hyphenated names, and apps["..."], reach the same skill and the same model.
    again = client.apps["hosting"].searchDomains(
        models.HostingSearchDomainsInput(requests=[{"query": "cedar.com"}])
    )
    assert isinstance(again, models.HostingSearchDomainsResult)
    assert again.results[0].query == "cedar.com"
    assert (
        client.apps.hosting.search_domains.__doc__
        == "Search domains: POST /v1/apps/hosting/skills/search_domains."
    )


def test_discovery(client: Client) -> None:
    assert {"app_id": "hosting", "skill_id": "search_domains"} in client.skills.list()
    app = client.skills.app("hosting")
    assert [s.id for s in app.skills] == ["search_domains"]
    details = client.skills.details("hosting", "search_domains")
    assert details.app_id == "hosting" and details.id == "search_domains"


def test_invalid_input_raises_the_envelope_rest_returns(stack: Stack, client: Client) -> None:
    bad = {"requests": [{"quer": "cedar"}]}
    expected = rest(stack, "POST", "/v1/apps/hosting/skills/search_domains", json=bad)
    assert expected.status_code == 400
    with pytest.raises(BadRequestError) as info:
        client.apps.hosting.search_domains(bad)
    e = info.value
    assert (e.status, e.code) == (400, "INVALID_PARAMETER")
    assert envelope_of(e) == expected.json()
    assert "requests[0].query" in [i["path"] for i in e.issues]
    assert e.retry_after is None


def test_unknown_skill_and_bad_token(stack: Stack, client: Client) -> None:
    expected = rest(stack, "POST", "/v1/apps/hosting/skills/nope", json={"requests": [{"query": "x"}]})
    with pytest.raises(NotFoundError) as info:
        client.apps.hosting.nope({"requests": [{"query": "x"}]})
    assert (info.value.status, info.value.code) == (404, "SKILL_NOT_FOUND")
    assert envelope_of(info.value) == expected.json()
    with Client(stack.url, "sf_not_a_key") as stranger, pytest.raises(AuthenticationError) as denied:
        stranger.workflows.list()
    assert (denied.value.status, denied.value.code) == (401, "UNAUTHENTICATED")
    assert "sf_not_a_key" not in str(denied.value) and "sf_not_a_key" not in repr(denied.value)


def test_workflow_lifecycle_run_wait_and_runs(stack: Stack, client: Client) -> None:
    source = EXAMPLE.replace("title: Domain ideas", f"title: Python {uuid.uuid4().hex[:8]}")
    check = client.workflows.validate(source)
    assert (check.valid, check.diagnostics) == (True, [])
    broken = client.workflows.validate(source.replace("hosting.search_domains", "hosting.search_domain"))
    assert broken.valid is False
    assert [(d.code, d.line) for d in broken.diagnostics][0][0] == "UNKNOWN_SKILL"

    created = client.workflows.create(source)
    assert (created.version, created.trigger_type) == (1, "manual")
    assert client.workflows.update(created.id, source).version == 1  # identical source: unchanged
    assert client.workflows.update(created.id, source.replace("cedar", "juniper")).version == 2
    assert client.workflows.get(created.id).version == 2
    assert created.id in [w.id for w in client.workflows.list()]

    started = client.workflows.run(created.id)
    seen: list[str] = []
    task = client.tasks.wait(
        started.task_id, timeout=90, interval=0.2, on_progress=lambda t: seen.append(t.status)
    )
    assert (task.task_id, task.kind, task.status, task.error) == (
        started.task_id,
        "workflow_run",
        "completed",
        None,
    )
    assert [(s.id, s.status) for s in task.steps] == [("search", "completed"), ("notify", "completed")]
    assert seen[-1] == "completed"
    assert (
        to_dict(client.tasks.get(started.task_id))
        == rest(stack, "GET", f"/v1/tasks/{started.task_id}").json()
    )
    assert started.task_id in [r.task_id for r in client.workflows.runs(created.id)]
    # Cancelling a finished task changes nothing.
    assert client.tasks.cancel(started.task_id).status == "completed"

    client.workflows.delete(created.id)
    with pytest.raises(NotFoundError) as gone:
        client.workflows.get(created.id)
    assert gone.value.code == "NOT_FOUND"


APPROVAL = """title: Approval (Python {tag})
start_when: {{ manual: {{}} }}
steps:
  - id: ok
    wait_for_approval:
      title: Go?
      payload: {{ budget: {{ type: number, required: true }} }}
      timeout: 1h
"""


def waiting_approval(client: Client, run_id: str) -> models.Approval1:
    for _ in range(100):
        found = [a for a in client.approvals.list() if a.run_id == run_id]
        if found:
            return found[0]
        time.sleep(0.2)
    raise AssertionError("the approval was never listed")


def test_approvals_list_refuse_and_approve(stack: Stack, client: Client) -> None:
    created = client.workflows.create(APPROVAL.format(tag=uuid.uuid4().hex[:8]))
    started = client.workflows.run(created.id)
    pending = waiting_approval(client, started.task_id)
    assert (pending.step_id, pending.title, to_dict(pending.payload)) == (
        "ok",
        "Go?",
        {"budget": {"type": "number", "required": True}},
    )
    with pytest.raises(UnprocessableEntityError) as wrong:
        client.approvals.approve(started.task_id, "ok", {"budget": "lots"})
    assert envelope_of(wrong.value) == rest(
        stack,
        "POST",
        f"/v1/runs/{started.task_id}/approvals/ok",
        json={"decision": "approved", "payload": {"budget": "lots"}},
    ).json()
    assert wrong.value.details == {"issues": [{"path": "payload.budget", "message": "must be of type number"}]}
    decided = client.approvals.approve(started.task_id, "ok", {"budget": 3})
    assert (decided.run_id, decided.step_id, decided.decision) == (started.task_id, "ok", "approved")
    with pytest.raises(ConflictError) as again:
        client.approvals.reject(started.task_id, "ok")
    assert again.value.code == "APPROVAL_NOT_WAITING"
    task = client.tasks.wait(started.task_id, timeout=60, interval=0.2)
    assert task.status == "completed"
    client.workflows.delete(created.id)


def test_approval_link_without_a_key(stack: Stack, client: Client) -> None:
    created = client.workflows.create(APPROVAL.format(tag=uuid.uuid4().hex[:8]))
    started = client.workflows.run(created.id)
    link = waiting_approval(client, started.task_id).link
    assert link.startswith("/#approve/v1.")
    with Client(stack.url) as guest:
        view = guest.approvals.view_link(link)
        assert (view.title, to_dict(view.payload)) == ("Go?", {"budget": {"type": "number", "required": True}})
        with pytest.raises(PermissionDeniedError) as altered:
            guest.approvals.approve_link(link[:-4] + "AAAA", {"budget": 1})
        assert altered.value.code == "APPROVAL_LINK_INVALID"
        with pytest.raises(UnprocessableEntityError) as wrong:
            guest.approvals.approve_link(link, {"budget": "lots"})
        assert wrong.value.details == {"issues": [{"path": "payload.budget", "message": "must be of type number"}]}
        decided = guest.approvals.approve_link(link, {"budget": 4})
        assert (decided.run_id, decided.step_id, decided.decision) == (started.task_id, "ok", "approved")
        with pytest.raises(ConflictError) as again:
            guest.approvals.approve_link(link, {"budget": 4})
        assert again.value.code == "APPROVAL_NOT_WAITING"
    task = client.tasks.wait(started.task_id, timeout=60, interval=0.2)
    assert task.status == "completed"
    assert to_dict(task.result)["outputs"]["ok"]["decided_by"] == "link"
    client.workflows.delete(created.id)


def test_events_start_and_refuse(client: Client) -> None:
    tag = uuid.uuid4().hex[:8]
    created = client.workflows.create(
        f"title: On event (Python {tag})\n"
        f"start_when:\n  event:\n    name: py.signup.{tag}\n    inputs:\n"
        "      email: { type: string, required: true }\n"
        "steps:\n  - id: wait\n    wait: { duration: 1s }\n"
    )
    assert created.trigger_type == "event"
    with pytest.raises(BadRequestError) as bad:
        client.events.send(f"py.signup.{tag}", {"email": 3})
    assert bad.value.code == "INVALID_PARAMETER"
    assert bad.value.details == {
        "issues": [{"path": "data.email", "message": "must be of type string"}],
        "definition_id": created.id,
    }
    sent = client.events.send(f"py.signup.{tag}", {"email": "a@example.com", "other": True})
    assert (sent.resumed, sent.started) == (0, 1)
    assert len(client.workflows.runs(created.id)) == 1
    client.workflows.delete(created.id)


def test_rerun_from_the_failed_step(client: Client) -> None:
    tag = uuid.uuid4().hex[:8]
    created = client.workflows.create(
        f"title: Re-run (Python {tag})\n"
        "start_when:\n  manual:\n    inputs:\n      stop: { type: boolean, default: true }\n"
        "steps:\n  - id: pause\n    wait: { duration: 1s }\n"
        "  - id: gate\n    if: inputs.stop == true\n    fail: { code: STOPPED, message: Stopped. }\n"
    )
    failed = client.tasks.wait(client.workflows.run(created.id).task_id, timeout=60, interval=0.2)
    assert failed.status == "failed"
    with pytest.raises(UnprocessableEntityError) as wrong:
        client.runs.rerun(failed.task_id, from_step="nowhere")
    assert wrong.value.code == "INVALID_RERUN"
    assert wrong.value.details == {
        "issues": [{"path": "from_step", "message": "Names no top-level step of the run."}],
        "steps": ["pause", "gate"],
    }
    step = client.runs.step(failed.task_id, "pause")
    assert (step.run_id, step.step_id, step.kind) == (failed.task_id, "pause", "wait")
    assert (step.skill, step.call) == (None, None)
    with pytest.raises(NotFoundError) as missing:
        client.runs.step(failed.task_id, "nowhere")
    assert (missing.value.code, missing.value.message) == ("NOT_FOUND", "The run has no step with this id.")
    started = client.runs.rerun(failed.task_id, inputs={"stop": False})
    assert (started.rerun_of, started.from_step, started.reused_steps) == (failed.task_id, "gate", ["pause"])
    task = client.tasks.wait(started.task_id, timeout=60, interval=0.2)
    assert task.status == "completed"
    assert task.rerun_of == failed.task_id
    assert [(s.id, s.status) for s in task.steps] == [("pause", "reused"), ("gate", "skipped")]
    assert task.steps[0].started_at == failed.steps[0].started_at
    client.workflows.delete(created.id)


def test_webhook_signed_request_rotation_and_refusals(client: Client) -> None:
    tag = uuid.uuid4().hex[:8]
    created = client.workflows.create(
        f"title: Hooked (Python {tag})\n"
        "start_when:\n  webhook:\n    inputs:\n      email: { type: string, required: true }\n"
        "steps:\n  - id: wait\n    wait: { duration: 1s }\n"
    )
    assert created.trigger_type == "webhook" and created.hook is not None
    secret = created.hook.signing_secret
    assert secret is not None and secret.startswith("whsec_")
    assert client.workflows.get(created.id).hook.signing_secret is None  # type: ignore[union-attr]

    def post(key: str, body: str, timestamp: int | None = None) -> httpx.Response:
        header = sign_webhook(key, body, timestamp)
        return httpx.post(
            created.hook.url,  # type: ignore[union-attr]
            content=body,
            headers={"content-type": "application/json", "x-skillflow-signature": header},
            timeout=30,
        )

    body = '{"email":"a@example.com","other":1}'
    assert post(secret, body).status_code == 202
    stale = post(secret, body, int(time.time()) - 600)
    assert (stale.status_code, stale.json()["error"]["code"]) == (401, "HOOK_SIGNATURE_INVALID")
    bad = post(secret, '{"email":3}')
    assert bad.status_code == 400
    assert bad.json()["error"]["details"] == {
        "issues": [{"path": "body.email", "message": "must be of type string"}]
    }
    rotated = client.workflows.hook.rotate(created.id, keep_previous_seconds=60)
    assert rotated.url == created.hook.url and rotated.signing_secret != secret  # type: ignore[union-attr]
    assert rotated.previous_secret_expires_at is not None
    assert post(secret, '{"email":"b@example.com"}').status_code == 202
    assert post(rotated.signing_secret, '{"email":"c@example.com"}').status_code == 202
    # Visibility trails a start by a moment.
    for _ in range(50):
        if len(client.workflows.runs(created.id)) == 3:
            break
        time.sleep(0.2)
    assert len(client.workflows.runs(created.id)) == 3
    manual = client.workflows.create(EXAMPLE.replace("title: Domain ideas", f"title: H {tag}"))
    with pytest.raises(ConflictError) as none:
        client.workflows.hook.rotate(manual.id)
    assert none.value.code == "CONFLICT"
    client.workflows.delete(manual.id)
    client.workflows.delete(created.id)


def test_schedule_controls(client: Client) -> None:
    created = client.workflows.create(
        SCHEDULED.replace("Daily domain watch", f"Watch {uuid.uuid4().hex[:8]}")
    )
    try:
        paused = client.workflows.schedule.pause(created.id)
        assert paused.paused is True
        resumed = client.workflows.schedule.resume(created.id)
        assert resumed.paused is False
        triggered = client.workflows.schedule.trigger(created.id)
        assert triggered.paused is False
        # 14 whole days (UTC midnight to midnight) hold 10 weekday 09:00 Berlin ticks.
        day = 86_400
        end = datetime.fromtimestamp((int(time.time()) // day - 1) * day, tz=timezone.utc)
        start = end - timedelta(days=14)
        backfill = client.workflows.schedule.backfill(created.id, start=start, end=end, overlap="buffer_one")
        assert backfill.model_dump() == {
            "workflow_id": created.id,
            "ticks": 10,
            "start": start.isoformat().replace("+00:00", ".000Z"),
            "end": end.isoformat().replace("+00:00", ".000Z"),
            "overlap": "buffer_one",
        }
        with pytest.raises(UnprocessableEntityError) as window:
            client.workflows.schedule.backfill(created.id, start=end.isoformat(), end=start.isoformat())
        assert window.value.code == "INVALID_BACKFILL_WINDOW"
        assert window.value.details == {
            "issues": [{"path": "end", "message": "must be after start", "location": "body"}]
        }
    finally:
        client.workflows.delete(created.id)
    manual = client.workflows.create(
        EXAMPLE.replace("title: Domain ideas", f"title: M {uuid.uuid4().hex[:8]}")
    )
    with pytest.raises(ConflictError) as info:
        client.workflows.schedule.pause(manual.id)
    assert info.value.status == 409
    client.workflows.delete(manual.id)


def test_keys_create_list_revoke(stack: Stack, client: Client) -> None:
    key = client.keys.create("pytest", ["workflows", "app:hosting"])
    assert key.token.startswith("sf_") and key.scopes == ["workflows", "app:hosting"]
    listed = {k.id: k for k in client.keys.list()}
    assert listed[key.id].name == "pytest"
    assert "token" not in to_dict(listed[key.id])
    with Client(stack.url, key.token) as scoped:
        assert isinstance(scoped.workflows.list(), list)
        client.keys.revoke(key.id)
        with pytest.raises(AuthenticationError) as info:
            scoped.workflows.list()
    assert info.value.code == "UNAUTHENTICATED"


def test_embed_download_of_an_unknown_embed_is_the_rest_404(stack: Stack, client: Client) -> None:
    expected = rest(stack, "GET", "/v1/embeds/emb_missing/file?format=preview")
    with pytest.raises(NotFoundError) as info:
        client.embeds.download("emb_missing", "preview")
    assert envelope_of(info.value) == expected.json()


def test_asset_download_links_give_the_exact_bytes_and_refuse_an_altered_link(
    stack: Stack, client: Client
) -> None:
    accepted = client.apps.electronics.get_power_design(
        {"requests": [{"solution_id": "10652-5000-2000-10000-24000-30"}]}
    )
    assert isinstance(accepted, SkillCallAccepted) and accepted.embed_id
    task = client.tasks.wait(accepted.task_id, timeout=120)
    assert task.status == "completed"
    design = to_dict(task)["result"]["output"]["results"][0]
    svg = client.assets.download(accepted.embed_id, "schematic")
    assert svg == design["schematic"]["svg"].encode()
    link = client.assets.download_link(accepted.embed_id, "parts")
    parts = json.loads(client.assets.fetch_link(link.url))
    assert parts == {"solution_id": design["solution_id"], "part_count": 6, "parts": design["parts"]}
    original = rest(stack, "GET", f"/v1/embeds/{accepted.embed_id}/file?format=original")
    assert client.assets.download(accepted.embed_id) == original.content
    with pytest.raises(PermissionDeniedError) as info:
        client.assets.fetch_link(link.url[:-2] + ("AA" if not link.url.endswith("AA") else "BB"))
    assert envelope_of(info.value) == {
        "error": {
            "code": "DOWNLOAD_LINK_INVALID",
            "message": "The download link is not valid: it is malformed or altered, the API key "
            "that asked for it was revoked, or that caller may no longer read the asset.",
            "details": {},
        }
    }
    with pytest.raises(NotFoundError):
        client.assets.download_link("emb_missing")


def test_anonymous_call_quote_and_free_usage_status(stack: Stack) -> None:
    guest = f"pytest-{uuid.uuid4().hex}"
    one = {"requests": [{"query": "cedar", "tlds": ["com"]}]}
    with Client(stack.url) as anon:  # no token at all
        before = anon.anonymous.free_usage_status(guest)
        assert before == {"daily_remaining_percent": 100, "can_send_text": True, "reason": "available"}
        quote = anon.anonymous.quote("hosting", "search_domains", one, anonymous_id=guest)
        assert (quote["app_id"], quote["skill_id"], quote["can_run"], quote["reason"]) == (
            "hosting",
            "search_domains",
            True,
            "available",
        )
        out = anon.anonymous.call("hosting", "search_domains", one, anonymous_id=guest)
        assert sorted(out) == ["previews", "results"]
        assert out["results"][0]["query"] == "cedar"
        after = anon.anonymous.free_usage_status(guest)
        assert after["daily_remaining_percent"] < 100
        with pytest.raises(BadRequestError) as info:
            anon.anonymous.free_usage_status("x")
        assert info.value.issues == [
            {"path": "anonymous_id", "message": "must be 16 to 128 letters, digits, _ or -"}
        ]


def test_idempotency_key_replays_a_run_and_a_skill_call(stack: Stack, client: Client) -> None:
    source = EXAMPLE.replace("title: Domain ideas", f"title: Idempotent {uuid.uuid4().hex[:8]}")
    created = client.workflows.create(source)
    key = f"py-{uuid.uuid4().hex}"
    first = client.workflows.run(created.id, idempotency_key=key)
    assert client.workflows.run(created.id, idempotency_key=key).task_id == first.task_id
    assert client.workflows.run(created.id).task_id != first.task_id
    replay = httpx.post(
        f"{stack.url}/v1/workflows/{created.id}/runs",
        json={"inputs": {}},
        headers={"authorization": f"Bearer {stack.token}", "idempotency-key": key},
        timeout=60,
    )
    assert (replay.status_code, replay.headers.get("idempotent-replayed"), replay.json()["task_id"]) == (
        202,
        "true",
        first.task_id,
    )

    request = {"requests": [{"query": "cedar", "tlds": ["com"]}]}
    call = client.apps.hosting.search_domains(request, idempotency_key=key)
    again = client.skills.call("hosting", "search_domains", request, idempotency_key=key)
    assert to_dict(again) == to_dict(call)
    with pytest.raises(ConflictError) as info:
        client.apps.hosting.search_domains({"requests": [{"query": "juniper"}]}, idempotency_key=key)
    assert info.value.status == 409
    assert envelope_of(info.value) == {
        "error": {
            "code": "IDEMPOTENCY_KEY_REUSED",
            "message": "This Idempotency-Key was used with a different request body within 24 hours; use a new key.",
            "details": {},
        }
    }


STOPPING = """title: Stops (Python {tag})
start_when: {{ manual: {{}} }}
steps:
  - id: halt
    fail: {{ code: HALTED, message: halted }}
"""


def test_runs_list_filters_pages_and_refuses_a_bad_filter(stack: Stack, client: Client) -> None:
    created = client.workflows.create(STOPPING.format(tag=uuid.uuid4().hex[:8]))
    started = [client.workflows.run(created.id).task_id for _ in range(3)]
    for task_id in started:
        assert client.tasks.wait(task_id, timeout=60, interval=0.2).status == "failed"
    page = client.runs.list(workflow_id=created.id, status="failed", failed_step="halt", limit=100)
    for _ in range(100):  # visibility trails a run's end
        if len(page.runs) == 3:
            break
        time.sleep(0.2)
        page = client.runs.list(workflow_id=created.id, status="failed", failed_step="halt", limit=100)
    assert sorted(r.task_id for r in page.runs) == sorted(started)
    assert {(r.workflow_id, r.status, r.failed_step) for r in page.runs} == {
        (created.id, "failed", "halt")
    }
    assert to_dict(page) == rest(
        stack, "GET", f"/v1/runs?workflow_id={created.id}&status=failed&failed_step=halt&limit=100"
    ).json()
    first = client.runs.list(workflow_id=created.id, limit=2)
    assert len(first.runs) == 2 and first.next_page_token is not None
    walked = [r.task_id for r in client.runs.iterate(workflow_id=created.id, page_size=2)]
    assert sorted(walked) == sorted(started)
    assert client.runs.list(workflow_id=created.id, status="completed").runs == []
    with pytest.raises(BadRequestError) as bad:
        client.runs.list(status="queued")  # type: ignore[arg-type]
    assert envelope_of(bad.value)["error"]["details"] == {  # type: ignore[index]
        "issues": [
            {
                "path": "status",
                "message": "Invalid option: expected one of "
                '"running"|"completed"|"failed"|"cancelled"|"timed_out"',
                "location": "querystring",
            }
        ]
    }

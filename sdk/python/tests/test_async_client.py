"""The asynchronous client against the real stack: the same calls as the sync one, awaited."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from conftest import ROOT, Stack

from skillflow import AsyncClient, ConflictError, NotFoundError, models, to_dict

EXAMPLE = (ROOT / "definitions" / "examples" / "domain-ideas.yaml").read_text()


def test_async_workflow_run_wait_and_errors(stack: Stack) -> None:
    async def main() -> None:
        async with AsyncClient(stack.url, stack.token) as client:
            source = EXAMPLE.replace("title: Domain ideas", f"title: Async {uuid.uuid4().hex[:8]}")
            created = await client.workflows.create(source)
            started = await client.workflows.run(created.id)
            seen: list[str] = []
            task = await client.tasks.wait(
                started.task_id, timeout=90, interval=0.2, on_progress=lambda t: seen.append(t.status)
            )
            assert isinstance(task, models.Task)
            assert (task.status, seen[-1]) == ("completed", "completed")
            assert started.task_id in [r.task_id for r in await client.workflows.runs(created.id)]
            skills, details = await asyncio.gather(
                client.skills.list(), client.skills.details("hosting", "search_domains")
            )
            assert {
                "app_id": "hosting",
                "skill_id": "search_domains",
            } in skills and details.id == "search_domains"
            await client.workflows.delete(created.id)
            with pytest.raises(NotFoundError) as info:
                await client.workflows.get(created.id)
            assert (info.value.status, info.value.code) == (404, "NOT_FOUND")
        assert client._transport.client.is_closed

    asyncio.run(main())


def test_async_approvals_reject_through_a_link(stack: Stack) -> None:
    async def main() -> None:
        async with AsyncClient(stack.url, stack.token) as client:
            created = await client.workflows.create(
                f"title: Async approval {uuid.uuid4().hex[:8]}\n"
                "start_when: { manual: {} }\n"
                "steps:\n  - id: ok\n    wait_for_approval: { title: Go?, timeout: 1h }\n"
            )
            started = await client.workflows.run(created.id)
            for _ in range(100):
                if any(a.run_id == started.task_id for a in await client.approvals.list()):
                    break
                await asyncio.sleep(0.2)
            pending = [a for a in await client.approvals.list() if a.run_id == started.task_id]
            assert (await client.approvals.view_link(pending[0].link)).title == "Go?"
            decided = await client.approvals.reject_link(pending[0].link)
            assert (decided.step_id, decided.decision) == ("ok", "rejected")
            task = await client.tasks.wait(started.task_id, timeout=60, interval=0.2)
            assert task.status == "completed"
            await client.workflows.delete(created.id)

    asyncio.run(main())


def test_async_idempotency_key_replays_a_run_and_a_skill_call(stack: Stack) -> None:
    async def main() -> None:
        async with AsyncClient(stack.url, stack.token) as client:
            source = EXAMPLE.replace("title: Domain ideas", f"title: Async idem {uuid.uuid4().hex[:8]}")
            created = await client.workflows.create(source)
            key = f"py-async-{uuid.uuid4().hex}"
            first, second = await asyncio.gather(
                client.workflows.run(created.id, idempotency_key=key),
                client.workflows.run(created.id, idempotency_key=key),
                return_exceptions=True,
            )
            # Sent together: one starts the run, the other is replayed or told the first is in flight.
            started = [r for r in (first, second) if isinstance(r, models.RunStarted)]
            assert started, (first, second)
            for r in (first, second):
                if not isinstance(r, models.RunStarted):
                    assert isinstance(r, ConflictError) and r.code == "IDEMPOTENCY_KEY_IN_FLIGHT"
            again = await client.workflows.run(created.id, idempotency_key=key)
            assert {again.task_id} == {r.task_id for r in started}

            request = {"requests": [{"query": "cedar", "tlds": ["com"]}]}
            call = await client.apps.hosting.search_domains(request, idempotency_key=key)
            replay = await client.skills.call("hosting", "search_domains", request, idempotency_key=key)
            assert to_dict(replay) == to_dict(call)
            with pytest.raises(ConflictError) as info:
                await client.skills.call(
                    "hosting", "search_domains", {"requests": [{"query": "birch"}]}, idempotency_key=key
                )
            assert (info.value.status, info.value.code) == (409, "IDEMPOTENCY_KEY_REUSED")

    asyncio.run(main())


def test_async_asset_download_gives_the_schematic_bytes(stack: Stack) -> None:
    async def main() -> None:
        async with AsyncClient(stack.url, stack.token) as client:
            accepted = await client.apps.electronics.get_power_design(
                {"requests": [{"solution_id": "10652-5000-2000-10000-24000-30"}]}
            )
            assert isinstance(accepted, models.SkillCallAccepted) and accepted.embed_id
            task = await client.tasks.wait(accepted.task_id, timeout=120)
            svg = to_dict(task)["result"]["output"]["results"][0]["schematic"]["svg"]
            assert await client.assets.download(accepted.embed_id, "schematic") == svg.encode()
            with pytest.raises(NotFoundError):
                await client.assets.download_link("emb_missing", "parts")

    asyncio.run(main())

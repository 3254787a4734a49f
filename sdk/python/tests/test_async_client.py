"""The asynchronous client against the real stack: the same calls as the sync one, awaited."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from conftest import ROOT, Stack

from skillflow import AsyncClient, NotFoundError, models

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

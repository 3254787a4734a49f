"""The asynchronous client: :class:`AsyncClient`, the same surface as :class:`skillflow.Client`
with every method awaitable. Both send the calls of :mod:`skillflow._requests`; each method's
documentation is on its synchronous twin."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import httpx
from typing_extensions import Unpack

from . import _requests as ops
from . import models
from ._apps import AsyncApps
from ._client import wait_timeout
from ._requests import AssetName, DefinitionFormat, DefinitionSource, EmbedFormat, SkillCallResponse
from ._transport import AsyncTransport, Call, ClientOptions
from .chat_keys import ReadChatMessage, open_chat_messages

T = TypeVar("T")


class Send(Protocol):
    """The transport's ``send``."""

    def __call__(self, call: Call[T]) -> Awaitable[T]: ...


class _Resource:
    def __init__(self, send: Send) -> None:
        self._send = send


class AsyncSkills(_Resource):
    """See :class:`skillflow.Skills`."""

    async def list(self) -> ops.SkillRefs:
        return await self._send(ops.list_skills())

    async def app(self, app_id: str) -> models.AppView:
        return await self._send(ops.get_app(app_id))

    async def get(self, app_id: str, skill_id: str) -> models.SkillView:
        return await self._send(ops.get_skill(app_id, skill_id))

    async def details(self, app_id: str, skill_id: str) -> models.SkillDetails:
        return await self._send(ops.skill_details(app_id, skill_id))

    async def call(
        self,
        app_id: str,
        skill_id: str,
        input: Any,
        *,
        team_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> SkillCallResponse:
        return await self._send(ops.call_skill(app_id, skill_id, input, team_id, idempotency_key))


class AsyncTasks(_Resource):
    """See :class:`skillflow.Tasks`."""

    async def get(self, task_id: str) -> models.Task:
        return await self._send(ops.get_task(task_id))

    async def cancel(self, task_id: str) -> models.Task:
        return await self._send(ops.cancel_task(task_id))

    async def wait(
        self,
        task_id: str,
        *,
        timeout: float = 600.0,
        interval: float = 0.5,
        on_progress: Callable[[models.Task], None] | None = None,
    ) -> models.Task:
        deadline = time.monotonic() + timeout
        while True:
            task = await self.get(task_id)
            if on_progress:
                on_progress(task)
            left = deadline - time.monotonic()
            if ops.is_terminal(task):
                return task
            if left <= 0:
                raise wait_timeout(task, timeout)
            await asyncio.sleep(min(interval, left))


class AsyncSchedule(_Resource):
    """See :class:`skillflow.Schedule`."""

    async def pause(self, workflow_id: str) -> models.ScheduleState:
        return await self._send(ops.schedule(workflow_id, "pause"))

    async def resume(self, workflow_id: str) -> models.ScheduleState:
        return await self._send(ops.schedule(workflow_id, "resume"))

    async def trigger(self, workflow_id: str) -> models.ScheduleState:
        return await self._send(ops.schedule(workflow_id, "trigger"))

    async def backfill(
        self,
        workflow_id: str,
        *,
        start: ops.Instant,
        end: ops.Instant,
        overlap: ops.ScheduleOverlap | None = None,
    ) -> models.BackfillStarted:
        return await self._send(ops.backfill_schedule(workflow_id, start, end, overlap))


class AsyncHook(_Resource):
    """See :class:`skillflow.Hook`."""

    async def rotate(self, workflow_id: str, *, keep_previous_seconds: int = 0) -> models.RotatedHook:
        return await self._send(ops.rotate_hook(workflow_id, keep_previous_seconds))


class AsyncWorkflows(_Resource):
    """See :class:`skillflow.Workflows`."""

    def __init__(self, send: Send) -> None:
        super().__init__(send)
        self.schedule = AsyncSchedule(send)
        self.hook = AsyncHook(send)

    async def validate(
        self, source: DefinitionSource, *, format: DefinitionFormat | None = None
    ) -> models.ValidationResult:
        return await self._send(ops.validate_workflow(source, format))

    async def create(
        self, source: DefinitionSource, *, format: DefinitionFormat | None = None
    ) -> models.WorkflowDefinition:
        return await self._send(ops.create_workflow(source, format))

    async def update(
        self, workflow_id: str, source: DefinitionSource, *, format: DefinitionFormat | None = None
    ) -> models.WorkflowDefinition:
        return await self._send(ops.update_workflow(workflow_id, source, format))

    async def list(self) -> ops.WorkflowItems:
        return await self._send(ops.list_workflows())

    async def get(self, workflow_id: str) -> models.WorkflowDefinition:
        return await self._send(ops.get_workflow(workflow_id))

    async def delete(self, workflow_id: str) -> None:
        await self._send(ops.delete_workflow(workflow_id))

    async def run(
        self,
        workflow_id: str,
        inputs: Mapping[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> models.RunStarted:
        return await self._send(ops.run_workflow(workflow_id, inputs, idempotency_key))

    async def runs(self, workflow_id: str) -> ops.RunItems:
        return await self._send(ops.list_runs(workflow_id))


class AsyncEmbeds(_Resource):
    """See :class:`skillflow.Embeds`."""

    async def download(self, embed_id: str, format: EmbedFormat = "full") -> Any:
        return await self._send(ops.download_embed(embed_id, format))


class AsyncAssets(_Resource):
    """See :class:`skillflow.Assets`."""

    async def download_link(
        self, embed_id: str, asset: AssetName = "original", *, design: int = 0
    ) -> models.DownloadLink:
        return await self._send(ops.create_download_link(embed_id, asset, design))

    async def fetch_link(self, url: str) -> bytes:
        return await self._send(ops.fetch_download_link(url))

    async def download(self, embed_id: str, asset: AssetName = "original", *, design: int = 0) -> bytes:
        return await self.fetch_link((await self.download_link(embed_id, asset, design=design)).url)


class AsyncKeys(_Resource):
    """See :class:`skillflow.Keys`."""

    async def create(
        self, name: str, scopes: Sequence[str], *, tier: str | None = None
    ) -> models.CreatedApiKey:
        return await self._send(ops.create_key(name, scopes, tier))

    async def list(self) -> ops.KeyItems:
        return await self._send(ops.list_keys())

    async def revoke(self, key_id: str) -> None:
        await self._send(ops.revoke_key(key_id))


class AsyncChats(_Resource):
    """See :class:`skillflow.Chats`."""

    async def messages(
        self,
        chat_id: str,
        *,
        private_key: str,
        limit: int | None = None,
        before: str | None = None,
    ) -> list[ReadChatMessage]:
        return open_chat_messages(await self._send(ops.chat_messages(chat_id, limit, before)), private_key)

    async def sealed_messages(
        self, chat_id: str, *, limit: int | None = None, before: str | None = None
    ) -> list[dict[str, Any]]:
        return await self._send(ops.chat_messages(chat_id, limit, before))

    async def register_key(self, public_key: str, label: str | None = None) -> dict[str, Any]:
        return await self._send(ops.register_chat_key(public_key, label))

    async def keys(self) -> list[dict[str, Any]]:
        return await self._send(ops.list_chat_keys())

    async def remove_key(self, key_id: str) -> None:
        await self._send(ops.remove_chat_key(key_id))


class AsyncApprovals(_Resource):
    """Approvals of ``wait_for_approval`` steps (``client.approvals``); needs the ``workflows`` scope."""

    async def list(self) -> ops.ApprovalItems:
        """The approvals your runs wait for, soonest expiry first."""
        return await self._send(ops.list_approvals())

    async def approve(
        self, run_id: str, step_id: str, payload: Mapping[str, Any] | None = None
    ) -> models.ApprovalDecided:
        """Approves the run's waiting step with the payload its declared fields ask for."""
        return await self._send(ops.decide_approval(run_id, step_id, "approved", payload))

    async def reject(
        self, run_id: str, step_id: str, payload: Mapping[str, Any] | None = None
    ) -> models.ApprovalDecided:
        """Rejects it: the step completes with ``decision: rejected`` and the run goes on."""
        return await self._send(ops.decide_approval(run_id, step_id, "rejected", payload))

    async def view_link(self, link: str) -> models.ApprovalLinkView:
        """What an approval link (the whole link or its token) asks; no key needed. An altered or
        expired link raises a 403 ``APPROVAL_LINK_INVALID``."""
        return await self._send(ops.view_approval_link(link))

    async def approve_link(self, link: str, payload: Mapping[str, Any] | None = None) -> models.ApprovalDecided:
        """Approves through a link, once (``decided_by`` is ``link``); a second use is 409."""
        return await self._send(ops.decide_approval_link(link, "approved", payload))

    async def reject_link(self, link: str, payload: Mapping[str, Any] | None = None) -> models.ApprovalDecided:
        """Rejects through a link, once."""
        return await self._send(ops.decide_approval_link(link, "rejected", payload))


class AsyncRuns(_Resource):
    """See :class:`skillflow.Runs`."""

    async def list(
        self, *, limit: int | None = None, page_token: str | None = None, **filters: Unpack[ops.RunFilters]
    ) -> models.RunSearchPage:
        """One page of your runs across definitions, newest first (open runs before closed ones).

        Filters (:class:`~skillflow._requests.RunFilters`): ``workflow_id``, ``status``
        (``running`` covers queued runs, ``failed`` every run shown as failed, ``timed_out`` only
        those that timed out), ``failed_step`` (the top-level step a failed run failed at),
        ``started_after`` / ``started_before`` (RFC 3339 text or a timezone-aware datetime).
        ``limit`` is 1-100 (default 20); pass the page's ``next_page_token`` as ``page_token``
        with the same filters for the next page (it is ``None`` on the last). A bad filter
        raises a 400 naming the parameter."""
        return await self._send(ops.search_runs(filters, limit, page_token))

    async def iterate(
        self, *, page_size: int = 100, **filters: Unpack[ops.RunFilters]
    ) -> AsyncIterator[ops.RunListItem]:
        """Every run matching the filters, page by page (``page_size`` per request)."""
        token: str | None = None
        while True:
            page = await self.list(limit=page_size, page_token=token, **filters)
            for run in page.runs:
                yield run
            token = page.next_page_token
            if token is None:
                return

    async def rerun(
        self,
        run_id: str,
        *,
        from_step: str | None = None,
        inputs: Mapping[str, Any] | None = None,
        step_inputs: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> models.RerunStarted:
        return await self._send(ops.rerun(run_id, from_step, inputs, step_inputs))

    async def step(self, run_id: str, step_id: str) -> models.RunStep:
        return await self._send(ops.run_step(run_id, step_id))

class AsyncEvents(_Resource):
    """Events (``client.events``); needs the ``workflows`` scope."""

    async def send(self, name: str, data: Mapping[str, Any] | None = None) -> models.EventSent:
        """Sends an event: resumes your runs waiting for it (``wait_for_event`` whose match fits the
        data) and starts your definitions with ``start_when.event`` of its name. Data that does not
        fit a triggered definition's run inputs raises a 400 naming the path; nothing happens then."""
        return await self._send(ops.send_event(name, data))


class AsyncAnonymous(_Resource):
    """See :class:`skillflow.Anonymous`."""

    async def call(
        self, app_id: str, skill_id: str, input: Any, *, anonymous_id: str | None = None
    ) -> dict[str, Any]:
        return await self._send(ops.anonymous_call(app_id, skill_id, input, anonymous_id))

    async def quote(
        self, app_id: str, skill_id: str, input: Any, *, anonymous_id: str | None = None
    ) -> dict[str, Any]:
        return await self._send(ops.anonymous_call(app_id, skill_id, input, anonymous_id, quote=True))

    async def free_usage_status(self, anonymous_id: str | None = None) -> dict[str, Any]:
        return await self._send(ops.free_usage_status(anonymous_id))


class AsyncClient:
    """An asynchronous skillflow client (``async with AsyncClient(...) as client``); arguments as
    for :class:`skillflow.Client`, with an :class:`httpx.AsyncClient` as ``http_client``."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        http_client: httpx.AsyncClient | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        self._transport = AsyncTransport(base_url, token, http_client, options)
        send = self._transport.send
        self.base_url = self._transport.base_url
        self.skills = AsyncSkills(send)
        self.apps = AsyncApps(self.skills)
        self.tasks = AsyncTasks(send)
        self.workflows = AsyncWorkflows(send)
        self.embeds = AsyncEmbeds(send)
        self.assets = AsyncAssets(send)
        self.keys = AsyncKeys(send)
        self.chats = AsyncChats(send)
        self.approvals = AsyncApprovals(send)
        self.runs = AsyncRuns(send)
        self.events = AsyncEvents(send)
        self.anonymous = AsyncAnonymous(send)

    async def aclose(self) -> None:
        """Closes the connection pool (unless ``http_client`` was passed in)."""
        await self._transport.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

"""The synchronous client: :class:`Client` and its resources. Every method sends one call of
:mod:`skillflow._requests` and returns the answer as a model (or None for 204)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import httpx
from typing_extensions import Unpack

from . import _requests as ops
from . import models
from ._apps import Apps
from ._requests import AssetName, DefinitionFormat, DefinitionSource, EmbedFormat, SkillCallResponse
from ._transport import Call, ClientOptions, SyncTransport
from .chat_keys import ReadChatMessage, open_chat_messages
from .errors import SkillflowClientError

T = TypeVar("T")


class Send(Protocol):
    """The transport's ``send``."""

    def __call__(self, call: Call[T]) -> T: ...


class _Resource:
    def __init__(self, send: Send) -> None:
        self._send = send


class Skills(_Resource):
    """Discovery and explicit skill calls (``client.skills``)."""

    def list(self) -> ops.SkillRefs:
        """Every skill the API serves (``[{"app_id", "skill_id"}]``, from /v1/openapi.json)."""
        return self._send(ops.list_skills())

    def app(self, app_id: str) -> models.AppView:
        """GET /v1/apps/{app}: the app and its skills."""
        return self._send(ops.get_app(app_id))

    def get(self, app_id: str, skill_id: str) -> models.SkillView:
        """GET /v1/apps/{app}/skills/{skill}."""
        return self._send(ops.get_skill(app_id, skill_id))

    def details(self, app_id: str, skill_id: str) -> models.SkillDetails:
        """GET /v1/apps/{app}/skills/{skill}/details: JSON Schemas, defaults, policy."""
        return self._send(ops.skill_details(app_id, skill_id))

    def call(
        self,
        app_id: str,
        skill_id: str,
        input: Any,
        *,
        team_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> SkillCallResponse:
        """POST /v1/apps/{app}/skills/{skill}: the skill's result (200) or ``SkillCallAccepted`` (202).

        With ``idempotency_key`` (sent as ``Idempotency-Key``), repeating the call with the same key
        and input within 24 hours returns the first answer and does not call the skill again.
        """
        return self._send(ops.call_skill(app_id, skill_id, input, team_id, idempotency_key))


class Tasks(_Resource):
    """Workflow runs and long-running skill calls, by ``task_id`` (``client.tasks``)."""

    def get(self, task_id: str) -> models.Task:
        """The task's current state."""
        return self._send(ops.get_task(task_id))

    def cancel(self, task_id: str) -> models.Task:
        """Requests cancellation (the run stops at its current step); returns the state after it."""
        return self._send(ops.cancel_task(task_id))

    def wait(
        self,
        task_id: str,
        *,
        timeout: float = 600.0,
        interval: float = 0.5,
        on_progress: Callable[[models.Task], None] | None = None,
    ) -> models.Task:
        """Polls until the task is completed, failed or cancelled and returns that state.

        ``on_progress`` gets every polled snapshot, the final one included. A failed or cancelled
        task is returned, not raised: check ``status``. Raises ``WAIT_TIMEOUT`` after ``timeout`` s.
        """
        deadline = time.monotonic() + timeout
        while True:
            task = self.get(task_id)
            if on_progress:
                on_progress(task)
            left = deadline - time.monotonic()
            if ops.is_terminal(task):
                return task
            if left <= 0:
                raise wait_timeout(task, timeout)
            time.sleep(min(interval, left))


def wait_timeout(task: models.Task, timeout: float) -> SkillflowClientError:
    """The error of a :meth:`Tasks.wait` that gave up."""
    return SkillflowClientError(
        "WAIT_TIMEOUT", f"Task {task.task_id} is still {task.status} after {timeout:g} s."
    )


class Schedule(_Resource):
    """A definition's schedule (``client.workflows.schedule``)."""

    def pause(self, workflow_id: str) -> models.ScheduleState:
        return self._send(ops.schedule(workflow_id, "pause"))

    def resume(self, workflow_id: str) -> models.ScheduleState:
        return self._send(ops.schedule(workflow_id, "resume"))

    def trigger(self, workflow_id: str) -> models.ScheduleState:
        """Starts one run now, outside the schedule."""
        return self._send(ops.schedule(workflow_id, "trigger"))

    def backfill(
        self,
        workflow_id: str,
        *,
        start: ops.Instant,
        end: ops.Instant,
        overlap: ops.ScheduleOverlap | None = None,
    ) -> models.BackfillStarted:
        """Runs the schedule's ticks between ``start`` and ``end`` (both included; RFC 3339
        instants or aware datetimes, in the past, at most 1,000 ticks, else a 422
        ``INVALID_BACKFILL_WINDOW``), with ``overlap`` or the schedule's own overlap policy.
        Needs the scopes a trigger needs."""
        return self._send(ops.backfill_schedule(workflow_id, start, end, overlap))


class Hook(_Resource):
    """A webhook trigger's hook (``client.workflows.hook``)."""

    def rotate(self, workflow_id: str, *, keep_previous_seconds: int = 0) -> models.RotatedHook:
        """A new ``signing_secret``, returned this once. The old secret stops being accepted at
        once, or after ``keep_previous_seconds`` (at most 86400). Needs the scopes saving the
        definition needs; a definition without a webhook trigger raises a 409 ``CONFLICT``."""
        return self._send(ops.rotate_hook(workflow_id, keep_previous_seconds))


class Workflows(_Resource):
    """Workflow definitions and runs (``client.workflows``). A text source is sent as written
    (YAML as ``application/yaml``), so diagnostics point at the caller's own lines."""

    def __init__(self, send: Send) -> None:
        super().__init__(send)
        self.schedule = Schedule(send)
        self.hook = Hook(send)

    def validate(
        self, source: DefinitionSource, *, format: DefinitionFormat | None = None
    ) -> models.ValidationResult:
        """Compiles without saving: ``valid``, ``diagnostics``, ``steps``."""
        return self._send(ops.validate_workflow(source, format))

    def create(
        self, source: DefinitionSource, *, format: DefinitionFormat | None = None
    ) -> models.WorkflowDefinition:
        """Saves a new definition (version 1); an invalid one raises ``INVALID_DEFINITION``."""
        return self._send(ops.create_workflow(source, format))

    def update(
        self, workflow_id: str, source: DefinitionSource, *, format: DefinitionFormat | None = None
    ) -> models.WorkflowDefinition:
        """Saves a new version (an identical source keeps the current version)."""
        return self._send(ops.update_workflow(workflow_id, source, format))

    def list(self) -> ops.WorkflowItems:
        return self._send(ops.list_workflows())

    def get(self, workflow_id: str) -> models.WorkflowDefinition:
        return self._send(ops.get_workflow(workflow_id))

    def delete(self, workflow_id: str) -> None:
        """Deletes the definition and its schedule."""
        self._send(ops.delete_workflow(workflow_id))

    def run(
        self,
        workflow_id: str,
        inputs: Mapping[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> models.RunStarted:
        """Starts a run with trigger inputs; follow its ``task_id`` with ``client.tasks``.

        With ``idempotency_key`` (sent as ``Idempotency-Key``), repeating the start with the same key
        and inputs within 24 hours returns the first run's ``task_id`` and starts nothing.
        """
        return self._send(ops.run_workflow(workflow_id, inputs, idempotency_key))

    def runs(self, workflow_id: str) -> ops.RunItems:
        """Run history, newest first."""
        return self._send(ops.list_runs(workflow_id))


class Embeds(_Resource):
    """Results of long-running skill calls (``client.embeds``)."""

    def download(self, embed_id: str, format: EmbedFormat = "full") -> Any:
        """The embed's JSON: ``preview``, ``full`` (default) or ``original`` (the raw output)."""
        return self._send(ops.download_embed(embed_id, format))


class Assets(_Resource):
    """Generated assets of your embeds through short-lived download links (``client.assets``)."""

    def download_link(
        self, embed_id: str, asset: AssetName = "original", *, design: int = 0
    ) -> models.DownloadLink:
        """A fresh link to one asset: ``original`` (the raw output, JSON), ``schematic`` (SVG) or
        ``parts`` (JSON) of the ``design``-th design. Another owner's embed is a 404."""
        return self._send(ops.create_download_link(embed_id, asset, design))

    def fetch_link(self, url: str) -> bytes:
        """The bytes behind a link; an expired one raises a 403 ``DOWNLOAD_LINK_EXPIRED``."""
        return self._send(ops.fetch_download_link(url))

    def download(self, embed_id: str, asset: AssetName = "original", *, design: int = 0) -> bytes:
        """A fresh link, then its bytes."""
        return self.fetch_link(self.download_link(embed_id, asset, design=design).url)


class Keys(_Resource):
    """API keys (``client.keys``); needs the ``keys`` scope."""

    def create(self, name: str, scopes: Sequence[str], *, tier: str | None = None) -> models.CreatedApiKey:
        """Creates a key. Its ``token`` is in this answer only: store it safely."""
        return self._send(ops.create_key(name, scopes, tier))

    def list(self) -> ops.KeyItems:
        """Every key (never with its token)."""
        return self._send(ops.list_keys())

    def revoke(self, key_id: str) -> None:
        """Revokes a key: its token answers 401 from then on."""
        self._send(ops.revoke_key(key_id))


class Chats(_Resource):
    """Chats (``client.chats``); needs the ``workflows`` scope. Messages are sealed to your chat
    keys and the API cannot read them: pass a registered key's private key to :meth:`messages`."""

    def messages(
        self,
        chat_id: str,
        *,
        private_key: str,
        limit: int | None = None,
        before: str | None = None,
    ) -> list[ReadChatMessage]:
        """A chat's messages, newest first, opened with ``private_key``; 404 for a chat never used."""
        return open_chat_messages(self._send(ops.chat_messages(chat_id, limit, before)), private_key)

    def sealed_messages(
        self, chat_id: str, *, limit: int | None = None, before: str | None = None
    ) -> list[dict[str, Any]]:
        """A chat's messages as the API answers them: sealed to your chat keys."""
        return self._send(ops.chat_messages(chat_id, limit, before))

    def register_key(self, public_key: str, label: str | None = None) -> dict[str, Any]:
        """Registers a device's public chat key (at most 20); the same key again answers the same key."""
        return self._send(ops.register_chat_key(public_key, label))

    def keys(self) -> list[dict[str, Any]]:
        """Your chat keys, oldest first."""
        return self._send(ops.list_chat_keys())

    def remove_key(self, key_id: str) -> None:
        """Removes a chat key: later messages are no longer sealed to it."""
        self._send(ops.remove_chat_key(key_id))


class Approvals(_Resource):
    """Approvals of ``wait_for_approval`` steps (``client.approvals``); needs the ``workflows`` scope."""

    def list(self) -> ops.ApprovalItems:
        """The approvals your runs wait for, soonest expiry first."""
        return self._send(ops.list_approvals())

    def approve(
        self, run_id: str, step_id: str, payload: Mapping[str, Any] | None = None
    ) -> models.ApprovalDecided:
        """Approves the run's waiting step with the payload its declared fields ask for
        (422 ``INVALID_APPROVAL_PAYLOAD`` names each field that does not fit)."""
        return self._send(ops.decide_approval(run_id, step_id, "approved", payload))

    def reject(
        self, run_id: str, step_id: str, payload: Mapping[str, Any] | None = None
    ) -> models.ApprovalDecided:
        """Rejects it: the step completes with ``decision: rejected`` and the run goes on."""
        return self._send(ops.decide_approval(run_id, step_id, "rejected", payload))

    def view_link(self, link: str) -> models.ApprovalLinkView:
        """What an approval link (the whole link or its token) asks; no key needed. An altered or
        expired link raises a 403 ``APPROVAL_LINK_INVALID``."""
        return self._send(ops.view_approval_link(link))

    def approve_link(self, link: str, payload: Mapping[str, Any] | None = None) -> models.ApprovalDecided:
        """Approves through a link, once (``decided_by`` is ``link``); a second use is 409."""
        return self._send(ops.decide_approval_link(link, "approved", payload))

    def reject_link(self, link: str, payload: Mapping[str, Any] | None = None) -> models.ApprovalDecided:
        """Rejects through a link, once."""
        return self._send(ops.decide_approval_link(link, "rejected", payload))


class Runs(_Resource):
    """Runs across definitions (``client.runs``); needs the ``workflows`` scope."""

    def list(
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
        return self._send(ops.search_runs(filters, limit, page_token))

    def iterate(
        self, *, page_size: int = 100, **filters: Unpack[ops.RunFilters]
    ) -> Iterator[ops.RunListItem]:
        """Every run matching the filters, page by page (``page_size`` per request)."""
        token: str | None = None
        while True:
            page = self.list(limit=page_size, page_token=token, **filters)
            yield from page.runs
            token = page.next_page_token
            if token is None:
                return

    def rerun(
        self,
        run_id: str,
        *,
        from_step: str | None = None,
        inputs: Mapping[str, Any] | None = None,
        step_inputs: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> models.RerunStarted:
        """Re-runs the closed run ``run_id`` from a step: the steps before ``from_step`` (default: the
        first one that failed) keep their recorded outputs and make no call; ``inputs`` changes run
        inputs by name and ``step_inputs`` replaces skill steps' whole inputs, by step id; a step whose
        inputs change runs again. An open run raises a 409; a request that does not fit, a 422
        ``INVALID_RERUN`` naming the paths. Poll the answer's ``task_id`` with ``client.tasks``."""
        return self._send(ops.rerun(run_id, from_step, inputs, step_inputs))

    def step(self, run_id: str, step_id: str) -> models.RunStep:
        """One step of the run ``run_id``: the input its call was given and what it answered, while
        the run runs and after (``call`` is None for a step that calls nothing or was not called
        yet). A loop element's inner step is named ``loop[2].inner``; a step the run lacks raises a
        404."""
        return self._send(ops.run_step(run_id, step_id))

class Events(_Resource):
    """Events (``client.events``); needs the ``workflows`` scope."""

    def send(self, name: str, data: Mapping[str, Any] | None = None) -> models.EventSent:
        """Sends an event: resumes your runs waiting for it (``wait_for_event`` whose match fits the
        data) and starts your definitions with ``start_when.event`` of its name. Data that does not
        fit a triggered definition's run inputs raises a 400 naming the path; nothing happens then."""
        return self._send(ops.send_event(name, data))


class Anonymous(_Resource):
    """The guest routes: no token, the guest is ``anonymous_id`` (``client.anonymous``)."""

    def call(
        self, app_id: str, skill_id: str, input: Any, *, anonymous_id: str | None = None
    ) -> dict[str, Any]:
        """Calls a skill open to guests (one request item), within the free allowance."""
        return self._send(ops.anonymous_call(app_id, skill_id, input, anonymous_id))

    def quote(
        self, app_id: str, skill_id: str, input: Any, *, anonymous_id: str | None = None
    ) -> dict[str, Any]:
        """What the call would cost and whether the allowance covers it; nothing runs."""
        return self._send(ops.anonymous_call(app_id, skill_id, input, anonymous_id, quote=True))

    def free_usage_status(self, anonymous_id: str | None = None) -> dict[str, Any]:
        """The guest's remaining free usage."""
        return self._send(ops.free_usage_status(anonymous_id))


class Client:
    """A synchronous skillflow client; use it as a context manager (or call :meth:`close`).

    ``base_url`` is the API origin (a trailing ``/v1`` is accepted); ``token`` an API key
    (``sf_...``), not needed for ``client.anonymous``; ``http_client`` your own httpx client,
    which the SDK then does not close. Options: :class:`~skillflow.ClientOptions` (``timeout``,
    ``max_retries``, ``max_retry_wait``, ``headers``).
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        http_client: httpx.Client | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        self._transport = SyncTransport(base_url, token, http_client, options)
        send = self._transport.send
        self.base_url = self._transport.base_url
        self.skills = Skills(send)
        #: ``client.apps.<app>.<skill>(input)``: typed for the apps known at generation, dynamic otherwise.
        self.apps = Apps(self.skills)
        self.tasks = Tasks(send)
        self.workflows = Workflows(send)
        self.embeds = Embeds(send)
        self.assets = Assets(send)
        self.keys = Keys(send)
        self.chats = Chats(send)
        self.approvals = Approvals(send)
        self.runs = Runs(send)
        self.events = Events(send)
        self.anonymous = Anonymous(send)

    def close(self) -> None:
        """Closes the connection pool (unless ``http_client`` was passed in)."""
        self._transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

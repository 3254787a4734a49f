"""Every API operation as a :class:`~skillflow._transport.Call`: its route, body and the model
its answer is read into. :class:`skillflow.Client` and :class:`skillflow.AsyncClient` send the
same calls, so both speak exactly the same REST.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, TypedDict, TypeVar

from pydantic import BaseModel

from . import models
from ._app_base import snake_case
from ._apps import SKILL_RESULTS
from ._transport import Call, seg

M = TypeVar("M", bound=BaseModel)

#: A definition's source: YAML or JSON text, or a mapping (sent as JSON).
DefinitionSource = str | Mapping[str, Any]
DefinitionFormat = Literal["yaml", "json"]
EmbedFormat = Literal["preview", "full", "original"]
#: A generated asset of an embed: its raw output (JSON), a power design's schematic (SVG) or
#: parts list (JSON).
AssetName = Literal["original", "schematic", "parts"]
ScheduleOp = Literal["pause", "resume", "trigger"]
ScheduleOverlap = Literal["skip", "buffer_one", "buffer_all", "cancel_other", "terminate_other", "allow_all"]
#: An RFC 3339 instant, or a timezone-aware datetime.
Instant = str | datetime

WorkflowItems = list[models.Workflow]
RunItems = list[models.Run]
#: One run of a search across definitions (``GET /v1/runs``).
RunListItem = models.Run1
#: A run status a search filters on (``running`` covers queued and running runs).
RunStatusFilter = Literal["running", "completed", "failed", "cancelled", "timed_out"]


class RunFilters(TypedDict, total=False):
    """What ``client.runs`` filters on (each optional)."""

    #: Only runs of this definition (``wf_...``).
    workflow_id: str
    #: ``running`` covers queued runs; ``failed`` every run shown as failed; ``timed_out`` only those.
    status: RunStatusFilter
    #: Only failed runs whose top-level step of this id failed.
    failed_step: str
    #: Only runs started after this instant (RFC 3339 text or a timezone-aware datetime).
    started_after: str | datetime
    #: Only runs started before this instant.
    started_before: str | datetime
KeyItems = list[models.Key]
#: One approval a run waits for (``GET /v1/approvals``).
PendingApproval = models.Approval1
ApprovalItems = list[models.Approval1]
#: ``[{"app_id", "skill_id"}]``
SkillRefs = list[dict[str, str]]

#: The answer of a skill call: the skill's result (200) or a queued / long-running call (202).
SkillCallResponse = BaseModel

_SKILL_ROUTE = re.compile(r"^/v1/apps/([a-z][a-z0-9_]*)/skills/([a-z][a-z0-9_]*)$")
_GUEST_HEADER = "x-skillflow-anonymous-id"


def to_dict(value: Any) -> Any:
    """The JSON of a model (and of lists and dicts of models): aliases, only the fields that were set.

    For an answer this is exactly the body the API sent; for a request, what the API expects.
    """
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {k: to_dict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_dict(v) for v in value]
    return value


def _model(cls: type[M]) -> Callable[[int, Any], M]:
    return lambda _status, body: cls.model_validate(body)


def _json(_status: int, body: Any) -> Any:
    return body


def _nothing(_status: int, _body: Any) -> None:
    return None


def detect_format(text: str) -> DefinitionFormat:
    """JSON when the text starts with ``{``, else YAML."""
    return "json" if text.lstrip().startswith("{") else "yaml"


def _source(
    method: str, path: str, source: DefinitionSource, fmt: DefinitionFormat | None, parse: Any
) -> Call[Any]:
    if not isinstance(source, str):
        return Call(method, path, parse, content=json.dumps(to_dict(source)), content_type="application/json")
    kind = fmt or detect_format(source)
    return Call(method, path, parse, content=source, content_type=f"application/{kind}")


def _wf(workflow_id: str) -> str:
    return f"/v1/workflows/{seg(workflow_id)}"


# Tasks


def get_task(task_id: str) -> Call[models.Task]:
    return Call("GET", f"/v1/tasks/{seg(task_id)}", _model(models.Task))


def cancel_task(task_id: str) -> Call[models.Task]:
    return Call("POST", f"/v1/tasks/{seg(task_id)}/cancel", _model(models.Task))


def is_terminal(task: models.Task) -> bool:
    """True when the task will not change any more (completed, failed or cancelled)."""
    return task.status in ("completed", "failed", "cancelled")


# Workflows


def create_workflow(
    source: DefinitionSource, fmt: DefinitionFormat | None
) -> Call[models.WorkflowDefinition]:
    return _source("POST", "/v1/workflows", source, fmt, _model(models.WorkflowDefinition))


def validate_workflow(
    source: DefinitionSource, fmt: DefinitionFormat | None
) -> Call[models.ValidationResult]:
    return _source("POST", "/v1/workflows/validate", source, fmt, _model(models.ValidationResult))


def update_workflow(
    workflow_id: str, source: DefinitionSource, fmt: DefinitionFormat | None
) -> Call[models.WorkflowDefinition]:
    return _source("PUT", _wf(workflow_id), source, fmt, _model(models.WorkflowDefinition))


def list_workflows() -> Call[list[models.Workflow]]:
    return Call("GET", "/v1/workflows", lambda s, b: models.WorkflowList.model_validate(b).workflows)


def get_workflow(workflow_id: str) -> Call[models.WorkflowDefinition]:
    return Call("GET", _wf(workflow_id), _model(models.WorkflowDefinition))


def delete_workflow(workflow_id: str) -> Call[None]:
    return Call("DELETE", _wf(workflow_id), _nothing)


def _idempotency(key: str | None) -> dict[str, str]:
    """The ``Idempotency-Key`` header, when a key is given: a repeat of the same request with it
    within 24 hours gets the first answer and does nothing new."""
    return {"idempotency-key": key} if key is not None else {}


def run_workflow(
    workflow_id: str, inputs: Mapping[str, Any] | None, idempotency_key: str | None = None
) -> Call[models.RunStarted]:
    return Call(
        "POST",
        f"{_wf(workflow_id)}/runs",
        _model(models.RunStarted),
        json={"inputs": to_dict(inputs or {})},
        headers=_idempotency(idempotency_key),
    )


def list_runs(workflow_id: str) -> Call[list[models.Run]]:
    return Call("GET", f"{_wf(workflow_id)}/runs", lambda s, b: models.RunList.model_validate(b).runs)


def _instant(value: str | datetime | None) -> str | None:
    """RFC 3339 text as given, or an aware datetime in ISO form (a naive one is refused)."""
    if value is None or isinstance(value, str):
        return value
    if value.tzinfo is None:
        raise ValueError("a datetime (a run filter or a backfill instant) must be timezone-aware")
    return value.isoformat()


def search_runs(
    filters: RunFilters, limit: int | None = None, page_token: str | None = None
) -> Call[models.RunSearchPage]:
    return Call(
        "GET",
        "/v1/runs",
        _model(models.RunSearchPage),
        params={
            "workflow_id": filters.get("workflow_id"),
            "status": filters.get("status"),
            "failed_step": filters.get("failed_step"),
            "started_after": _instant(filters.get("started_after")),
            "started_before": _instant(filters.get("started_before")),
            "limit": None if limit is None else str(limit),
            "page_token": page_token,
        },
    )


def schedule(workflow_id: str, op: ScheduleOp) -> Call[models.ScheduleState]:
    return Call("POST", f"{_wf(workflow_id)}/schedule/{op}", _model(models.ScheduleState))


def backfill_schedule(
    workflow_id: str, start: Instant, end: Instant, overlap: ScheduleOverlap | None
) -> Call[models.BackfillStarted]:
    body: dict[str, Any] = {"start": _instant(start), "end": _instant(end)}
    if overlap is not None:
        body["overlap"] = overlap
    return Call("POST", f"{_wf(workflow_id)}/schedule/backfill", _model(models.BackfillStarted), json=body)


def rotate_hook(workflow_id: str, keep_previous_seconds: int) -> Call[models.RotatedHook]:
    return Call(
        "POST",
        f"{_wf(workflow_id)}/hook/rotate",
        _model(models.RotatedHook),
        json={"keep_previous_seconds": keep_previous_seconds},
    )


# Approvals


def list_approvals() -> Call[list[models.Approval1]]:
    return Call("GET", "/v1/approvals", lambda s, b: models.ApprovalList.model_validate(b).approvals)


def decide_approval(
    run_id: str, step_id: str, decision: Literal["approved", "rejected"], payload: Mapping[str, Any] | None
) -> Call[models.ApprovalDecided]:
    body: dict[str, Any] = {"decision": decision}
    if payload is not None:
        body["payload"] = to_dict(payload)
    return Call(
        "POST", f"/v1/runs/{seg(run_id)}/approvals/{seg(step_id)}", _model(models.ApprovalDecided), json=body
    )


def link_token(link: str) -> str:
    """The token of an approval link: what follows ``#approve/``, or the whole string if it has none."""
    at = link.find("#approve/")
    return link if at < 0 else link[at + len("#approve/") :]


def view_approval_link(link: str) -> Call[models.ApprovalLinkView]:
    return Call(
        "POST", "/v1/approval-links/view", _model(models.ApprovalLinkView), json={"token": link_token(link)}
    )


def decide_approval_link(
    link: str, decision: Literal["approved", "rejected"], payload: Mapping[str, Any] | None
) -> Call[models.ApprovalDecided]:
    body: dict[str, Any] = {"token": link_token(link), "decision": decision}
    if payload is not None:
        body["payload"] = to_dict(payload)
    return Call("POST", "/v1/approval-links/decide", _model(models.ApprovalDecided), json=body)


# Events


def send_event(name: str, data: Mapping[str, Any] | None) -> Call[models.EventSent]:
    body: dict[str, Any] = {"name": name}
    if data is not None:
        body["data"] = to_dict(data)
    return Call("POST", "/v1/events", _model(models.EventSent), json=body)


# Runs


def rerun(
    run_id: str,
    from_step: str | None,
    inputs: Mapping[str, Any] | None,
    step_inputs: Mapping[str, Mapping[str, Any]] | None,
) -> Call[models.RerunStarted]:
    body: dict[str, Any] = {}
    if from_step is not None:
        body["from_step"] = from_step
    if inputs is not None:
        body["inputs"] = to_dict(inputs)
    if step_inputs is not None:
        body["step_inputs"] = {step: to_dict(value) for step, value in step_inputs.items()}
    return Call("POST", f"/v1/runs/{seg(run_id)}/rerun", _model(models.RerunStarted), json=body)


def run_step(run_id: str, step_id: str) -> Call[models.RunStep]:
    return Call("GET", f"/v1/runs/{seg(run_id)}/steps/{seg(step_id)}", _model(models.RunStep))


# Skills


def list_skills() -> Call[list[dict[str, str]]]:
    """Every skill the API serves, from its OpenAPI document."""

    def parse(_status: int, doc: Any) -> list[dict[str, str]]:
        paths = doc.get("paths", {}) if isinstance(doc, dict) else {}
        found = [m.groups() for m in map(_SKILL_ROUTE.match, paths) if m]
        return [{"app_id": a, "skill_id": s} for a, s in sorted(found)]

    return Call("GET", "/v1/openapi.json", parse)


def _skill_path(app_id: str, skill_id: str, prefix: str = "/v1") -> str:
    return f"{prefix}/apps/{seg(app_id)}/skills/{seg(snake_case(skill_id))}"


def get_app(app_id: str) -> Call[models.AppView]:
    return Call("GET", f"/v1/apps/{seg(app_id)}", _model(models.AppView))


def get_skill(app_id: str, skill_id: str) -> Call[models.SkillView]:
    return Call("GET", _skill_path(app_id, skill_id), _model(models.SkillView))


def skill_details(app_id: str, skill_id: str) -> Call[models.SkillDetails]:
    return Call("GET", f"{_skill_path(app_id, skill_id)}/details", _model(models.SkillDetails))


def call_skill(
    app_id: str, skill_id: str, input: Any, team_id: str | None, idempotency_key: str | None = None
) -> Call[SkillCallResponse]:
    """200: the skill's result model (``SkillCallCompleted`` for a skill unknown at generation);
    202: ``SkillCallAccepted``."""
    result = SKILL_RESULTS.get(f"{app_id}.{snake_case(skill_id)}", models.SkillCallCompleted)

    def parse(status: int, body: Any) -> BaseModel:
        return (models.SkillCallAccepted if status == 202 else result).model_validate(body)

    return Call(
        "POST",
        _skill_path(app_id, skill_id),
        parse,
        params={"team_id": team_id},
        json=to_dict(input),
        headers=_idempotency(idempotency_key),
    )


# Embeds


def download_embed(embed_id: str, fmt: EmbedFormat) -> Call[Any]:
    """The embed's JSON in the chosen format (409 ``EMBED_PENDING`` while its task runs)."""
    return Call("GET", f"/v1/embeds/{seg(embed_id)}/file", _json, params={"format": fmt})


# Assets


def create_download_link(embed_id: str, asset: AssetName, design: int) -> Call[models.DownloadLink]:
    """A fresh link (valid at most 5 minutes) to one asset of the caller's own embed."""
    body = {"embed_id": embed_id, "asset": asset, "design": design}
    return Call("POST", "/v1/assets/download-links", _model(models.DownloadLink), json=body)


def _bytes(_status: int, body: Any) -> bytes:
    return bytes(body)


def fetch_download_link(url: str) -> Call[bytes]:
    """The bytes behind a download link (no API key is sent: the link is the credential)."""
    return Call("GET", "", _bytes, url=url, raw=True, authenticated=False, headers={"accept": "*/*"})


# Keys


def create_key(name: str, scopes: Sequence[str], tier: str | None) -> Call[models.CreatedApiKey]:
    body: dict[str, Any] = {"name": name, "scopes": list(scopes)}
    if tier is not None:
        body["tier"] = tier
    return Call("POST", "/v1/keys", _model(models.CreatedApiKey), json=body)


def list_keys() -> Call[list[models.Key]]:
    return Call("GET", "/v1/keys", lambda s, b: models.ApiKeyList.model_validate(b).keys)


def revoke_key(key_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/keys/{seg(key_id)}", _nothing)


# Chats: messages come sealed to the owner's chat keys (skillflow.chat_keys opens them)


def chat_messages(chat_id: str, limit: int | None, before: str | None) -> Call[list[dict[str, Any]]]:
    body: dict[str, Any] = {"chat_id": chat_id}
    if limit is not None:
        body["limit"] = limit
    if before is not None:
        body["before"] = before
    return Call("POST", "/v1/chats/messages", lambda s, b: list(b["messages"]), json=body)


def register_chat_key(public_key: str, label: str | None) -> Call[dict[str, Any]]:
    body: dict[str, Any] = {"public_key": public_key}
    if label is not None:
        body["label"] = label
    return Call("POST", "/v1/chats/keys", lambda s, b: dict(b), json=body)


def list_chat_keys() -> Call[list[dict[str, Any]]]:
    return Call("GET", "/v1/chats/keys", lambda s, b: list(b["keys"]))


def remove_chat_key(key_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/chats/keys/{seg(key_id)}", _nothing)


# Guest routes (no token; the guest is identified by X-Skillflow-Anonymous-ID)


def _guest(anonymous_id: str | None) -> dict[str, str]:
    return {_GUEST_HEADER: anonymous_id} if anonymous_id else {}


def anonymous_call(
    app_id: str, skill_id: str, input: Any, anonymous_id: str | None, *, quote: bool = False
) -> Call[dict[str, Any]]:
    """The guest skill call, or with ``quote`` its pre-check (cost and whether the allowance covers it)."""
    path = _skill_path(app_id, skill_id, "/v1/anonymous") + ("/quote" if quote else "")
    return Call("POST", path, _json, json=to_dict(input), headers=_guest(anonymous_id), authenticated=False)


def free_usage_status(anonymous_id: str | None) -> Call[dict[str, Any]]:
    return Call(
        "GET",
        "/v1/anonymous/free-usage/status",
        _json,
        params={"anonymous_id": anonymous_id},
        authenticated=False,
    )

"""The dynamic part of ``client.apps``: any attribute of ``apps`` is an app id and any attribute
of an app a skill id (``search_domains``, ``searchDomains`` and ``search-domains`` all name
``search_domains``), so apps and skills added after the SDK was generated work too; the API
answers 404 ``SKILL_NOT_FOUND`` for ones that do not exist. The typed classes in ``_apps`` are
generated over these bases.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol


def snake_case(name: str) -> str:
    """``searchDomains`` → ``search_domains``; snake_case and kebab-case ids become snake_case."""
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).replace("-", "_").lower()


class SkillCaller(Protocol):
    """``client.skills``: what an app needs to call its skills."""

    def call(
        self,
        app_id: str,
        skill_id: str,
        input: Any,
        *,
        team_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any: ...


class AppBase:
    """One app's skills as methods: ``app.search_domains(input, team_id=None, idempotency_key=None)``."""

    def __init__(self, skills: SkillCaller, app_id: str) -> None:
        self._skills = skills
        self.app_id = app_id

    def _call(
        self, skill_id: str, input: Any, team_id: str | None, idempotency_key: str | None = None
    ) -> Any:
        return self._skills.call(
            self.app_id, skill_id, input, team_id=team_id, idempotency_key=idempotency_key
        )

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        skill_id = snake_case(name)

        def call(input: Any, *, team_id: str | None = None, idempotency_key: str | None = None) -> Any:
            return self._call(skill_id, input, team_id, idempotency_key)

        call.__name__ = skill_id
        return call

    def __repr__(self) -> str:
        return f"<skillflow app {self.app_id}>"


class AppsBase:
    """``client.apps``: every app as an attribute (or ``apps["app-id"]``)."""

    def __init__(self, skills: SkillCaller) -> None:
        self._skills = skills

    def __getattr__(self, name: str) -> AppBase:
        if name.startswith("_"):
            raise AttributeError(name)
        return AppBase(self._skills, snake_case(name))

    def __getitem__(self, app_id: str) -> AppBase:
        app: AppBase = getattr(self, snake_case(app_id))
        return app

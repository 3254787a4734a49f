"""The skillflow Python SDK.

```python
from skillflow import Client, SkillCallAccepted

with Client("http://127.0.0.1:8080", token="sf_...") as client:
    res = client.apps.hosting.search_domains({"requests": [{"query": "cedar", "tlds": ["com"]}]})
    if isinstance(res, SkillCallAccepted):  # queued: follow the task
        print(client.tasks.wait(res.task_id).status)
    else:
        print([r.domain for r in res.results[0].results])
```

Answers are pydantic models of the REST bodies (generated from /v1/openapi.json);
``to_dict(model)`` gives back exactly the JSON the API sent. Errors raise
:class:`SkillflowApiError` (with ``status``, ``code``, ``message``, ``details`` and
``retry_after``) or :class:`SkillflowClientError`.
"""

from . import models
from ._app_base import AppBase, AppsBase, snake_case
from ._async_client import AsyncClient
from ._client import (
    Anonymous,
    Approvals,
    Assets,
    Chats,
    Client,
    Embeds,
    Events,
    Hook,
    Keys,
    Runs,
    Schedule,
    Skills,
    Tasks,
    Workflows,
)
from ._requests import (
    AssetName,
    DefinitionFormat,
    DefinitionSource,
    EmbedFormat,
    RunFilters,
    detect_format,
    is_terminal,
    to_dict,
)
from ._transport import ClientOptions, __version__, normalise_base_url
from .errors import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    SkillflowApiError,
    SkillflowClientError,
    SkillflowError,
    UnprocessableEntityError,
)
from .chat_keys import (
    ChatKeyPair,
    ReadChatMessage,
    chat_key_file_path,
    chat_public_key_of,
    generate_chat_key_pair,
    open_chat_messages,
    read_chat_key_file,
    write_chat_key_file,
)
from .models import SkillCallAccepted, SkillCallCompleted, Task
from .webhooks import sign_webhook

__all__ = [
    "Anonymous",
    "AppBase",
    "Approvals",
    "Events",
    "Hook",
    "AppsBase",
    "AssetName",
    "Assets",
    "AsyncClient",
    "ChatKeyPair",
    "Chats",
    "ReadChatMessage",
    "chat_key_file_path",
    "chat_public_key_of",
    "generate_chat_key_pair",
    "open_chat_messages",
    "read_chat_key_file",
    "write_chat_key_file",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ClientOptions",
    "ConflictError",
    "DefinitionFormat",
    "DefinitionSource",
    "EmbedFormat",
    "Embeds",
    "InternalServerError",
    "Keys",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RunFilters",
    "Runs",
    "Schedule",
    "ServiceUnavailableError",
    "SkillCallAccepted",
    "SkillCallCompleted",
    "SkillflowApiError",
    "SkillflowClientError",
    "SkillflowError",
    "Skills",
    "Task",
    "Tasks",
    "UnprocessableEntityError",
    "Workflows",
    "__version__",
    "detect_format",
    "is_terminal",
    "models",
    "normalise_base_url",
    "snake_case",
    "sign_webhook",
    "to_dict",
]

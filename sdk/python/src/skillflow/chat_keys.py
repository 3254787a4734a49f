"""Chat keys: the keys your devices read chats with.

Delivered chat messages are sealed to every chat key you registered (libsodium sealed boxes,
X25519, through PyNaCl), and the API cannot open them: only the private key of a registered key
can. Generate a key pair on the device, keep the private key there (never send it), register the
public key with ``client.chats.register_key``, and read with
``client.chats.messages(chat_id, private_key=...)``.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nacl.exceptions import CryptoError
from nacl.public import PrivateKey, SealedBox

from .errors import SkillflowClientError


@dataclass(frozen=True)
class ChatKeyPair:
    """A chat key pair; both halves standard base64 of 32 bytes. Keep ``private_key`` secret."""

    public_key: str
    private_key: str


@dataclass(frozen=True)
class ReadChatMessage:
    """A message as read with a private key. ``readable`` is False when it is sealed only to other
    keys (another device, or delivered before this key was registered); then ``title`` and
    ``message`` are None."""

    message_id: str
    readable: bool
    title: str | None
    message: str | None
    task_id: str | None
    step_id: str | None
    created_at: str
    webhook_delivered: bool


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    text = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4))


def generate_chat_key_pair() -> ChatKeyPair:
    """A new X25519 key pair (libsodium ``crypto_box_keypair``)."""
    key = PrivateKey.generate()
    return ChatKeyPair(public_key=_b64(bytes(key.public_key)), private_key=_b64(bytes(key)))


def chat_public_key_of(private_key: str) -> str:
    """The public key of a private key."""
    return _b64(bytes(PrivateKey(_unb64(private_key)).public_key))


def _open(box: SealedBox[PrivateKey], ciphertext: str) -> Any:
    try:
        return json.loads(box.decrypt(_unb64(ciphertext)).decode("utf-8"))
    except (CryptoError, ValueError):
        return None


def open_chat_messages(messages: Iterable[Mapping[str, Any]], private_key: str) -> list[ReadChatMessage]:
    """Opens each message's copy sealed to ``private_key`` (messages as ``POST /v1/chats/messages``
    answers them). A copy that does not name the message it is listed under is not accepted.
    Messages the server sealed itself (the development mode CHAT_SERVER_SEALED) come as they are."""
    box = SealedBox(PrivateKey(_unb64(private_key)))
    out: list[ReadChatMessage] = []
    for m in messages:
        title, text = m.get("title"), m.get("message")
        if not (isinstance(title, str) and isinstance(text, str)):
            title = text = None
            for copy in m.get("sealed", []):
                opened = _open(box, copy["ciphertext"])
                if (
                    isinstance(opened, dict)
                    and opened.get("message_id") == m["message_id"]
                    and isinstance(opened.get("title"), str)
                    and isinstance(opened.get("message"), str)
                ):
                    title, text = opened["title"], opened["message"]
                    break
        out.append(
            ReadChatMessage(
                message_id=m["message_id"],
                readable=title is not None,
                title=title,
                message=text,
                task_id=m.get("task_id"),
                step_id=m.get("step_id"),
                created_at=m["created_at"],
                webhook_delivered=bool(m.get("webhook_delivered")),
            )
        )
    return out


_KEY_CHARS = 44


def chat_key_file_path(env: Mapping[str, str] | None = None) -> Path:
    """Where this device's chat key file lives, as ``skillflow chats init`` writes it:
    ``SKILLFLOW_CHAT_KEY_FILE``, else ``$XDG_CONFIG_HOME/skillflow/chat-key.json``, else
    ``~/.config/skillflow/chat-key.json``."""
    env = os.environ if env is None else env
    explicit = (env.get("SKILLFLOW_CHAT_KEY_FILE") or "").strip()
    if explicit:
        return Path(explicit).resolve()
    base = (env.get("XDG_CONFIG_HOME") or "").strip() or str(Path.home() / ".config")
    return Path(base) / "skillflow" / "chat-key.json"


def _is_key(value: object) -> bool:
    if not isinstance(value, str) or len(value) != _KEY_CHARS or not value.endswith("="):
        return False
    try:
        return len(base64.b64decode(value, validate=True)) == 32
    except ValueError:
        return False


def read_chat_key_file(path: str | os.PathLike[str] | None = None) -> ChatKeyPair | None:
    """The key pair in a chat key file (the CLI's, by default), or None when there is no file.
    A file that is not a key file raises ``SkillflowClientError`` ``CHAT_KEY_FILE_INVALID``,
    naming the path, never its content."""
    file = Path(path) if path is not None else chat_key_file_path()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    invalid = SkillflowClientError(
        "CHAT_KEY_FILE_INVALID",
        f"{file} is not a skillflow chat key file (JSON with public_key and private_key); "
        "move it away and run `skillflow chats init` to make a new key",
    )
    try:
        data = json.loads(text)
    except ValueError:
        raise invalid from None
    if not isinstance(data, dict) or not all(_is_key(data.get(k)) for k in ("public_key", "private_key")):
        raise invalid
    return ChatKeyPair(public_key=data["public_key"], private_key=data["private_key"])


def write_chat_key_file(pair: ChatKeyPair, path: str | os.PathLike[str] | None = None) -> Path:
    """Writes a new chat key file (mode 0600, its folder 0700) that the CLI and the SDKs read;
    never overwrites one (``FileExistsError``)."""
    file = Path(path) if path is not None else chat_key_file_path()
    # Every folder made here is private (mode 0700), not only the last one.
    for folder in reversed([file.parent, *file.parent.parents]):
        if not folder.exists():
            folder.mkdir(mode=0o700)
    body = json.dumps({"public_key": pair.public_key, "private_key": pair.private_key}, indent=2) + "\n"
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(body)
        os.chmod(file, 0o600)
    except BaseException:
        # No half-written key file is left to be read as an invalid one later.
        file.unlink(missing_ok=True)
        raise
    return file

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from nacl.exceptions import CryptoError
from nacl.public import PrivateKey, SealedBox


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

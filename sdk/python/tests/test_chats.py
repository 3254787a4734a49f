"""Chats against npm start: a run's message is sealed to the owner's chat keys, the API answers
only ciphertext, and ``client.chats.messages(..., private_key=...)`` opens it with PyNaCl."""

from __future__ import annotations

import json
import uuid

from conftest import ROOT, Stack

from skillflow import Client, generate_chat_key_pair

EXAMPLE = (ROOT / "definitions" / "examples" / "domain-ideas.yaml").read_text()


def test_reads_a_delivered_message_with_its_chat_key(stack: Stack) -> None:
    with Client(stack.url, token=stack.token) as client:
        created = client.workflows.create(
            EXAMPLE.replace("title: Domain ideas", f"title: Chat {uuid.uuid4().hex[:8]}")
        )
        task = client.tasks.wait(client.workflows.run(created.id).task_id, timeout=60)
        assert task.status == "completed"
        chat_id = f"workflow:{created.id}"

        sealed = client.chats.sealed_messages(chat_id)
        assert "domains found" not in json.dumps(sealed)
        assert stack.chat_private_key not in json.dumps(sealed)
        assert [len(m["sealed"]) for m in sealed] == [1]
        assert "title" not in sealed[0]

        [message] = client.chats.messages(chat_id, private_key=stack.chat_private_key)
        assert message.readable
        assert message.title == "Domains"
        assert message.message is not None and message.message.endswith(" domains found")
        assert (message.task_id, message.step_id) == (task.task_id, "notify")

        # A key registered after the delivery does not open it.
        [unread] = client.chats.messages(chat_id, private_key=generate_chat_key_pair().private_key)
        assert (unread.readable, unread.title, unread.message) == (False, None, None)


def test_chat_keys_are_listed_and_removed(stack: Stack) -> None:
    with Client(stack.url, token=stack.token) as client:
        pair = generate_chat_key_pair()
        key = client.chats.register_key(pair.public_key, "temporary")
        assert key["public_key"] == pair.public_key
        assert key["key_id"] in [k["key_id"] for k in client.chats.keys()]
        client.chats.remove_key(key["key_id"])
        assert key["key_id"] not in [k["key_id"] for k in client.chats.keys()]

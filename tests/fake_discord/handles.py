"""What ``send_interaction``/``send_message`` return: handles a test awaits until the bot has answered.

Every wait re-checks on each change the fake records and fails with a TimeoutError that says
what it waited for and what the bot last did, so a silent bot fails fast and legibly.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.fake_discord.records import JSON, InteractionCallback, InteractionRecord, StoredMessage
from tests.fake_discord.state import FakeState

#: How long a wait may last before it fails. A ceiling, not a pause: a wait ends as soon as the bot
#: has answered, so a passing test never sleeps it out; it is generous because a loaded machine
#: (the suite runs in parallel) can take seconds to schedule a busy bot's answer.
DEFAULT_TIMEOUT = 15.0


@dataclass
class InteractionHandle:
    """An interaction the fake sent; await ``response()`` for the bot's callback."""

    record: InteractionRecord
    state: FakeState

    @property
    def id(self) -> int:
        """The interaction id."""
        return self.record.id

    @property
    def token(self) -> str:
        """The interaction token (also its webhook token for follow-ups)."""
        return self.record.token

    @property
    def payload(self) -> JSON:
        """The INTERACTION_CREATE data as sent."""
        return self.record.payload

    @property
    def sent_at(self) -> float:
        """``perf_counter()`` when the fake sent the event."""
        return self.record.sent_at

    @property
    def callback(self) -> InteractionCallback | None:
        """The callback, if the bot has answered."""
        return self.record.callback

    @property
    def latency(self) -> float | None:
        """Seconds from sending the event to receiving the callback (None until answered)."""
        return None if self.record.callback is None else self.record.callback.latency

    @property
    def original(self) -> StoredMessage | None:
        """The message ``@original`` names: the response, or the component's message after 6/7."""
        message_id = self.record.original_message_id
        return None if message_id is None else self.state.messages.get(message_id)

    @property
    def followups(self) -> list[StoredMessage]:
        """Follow-up messages, in order."""
        return [self.state.messages[message_id] for message_id in self.record.followup_ids]

    async def response(self, timeout: float = DEFAULT_TIMEOUT) -> InteractionCallback:
        """Wait for the bot's callback to this interaction."""
        return await self.state.changes.wait_for(
            lambda: self.record.callback, timeout=timeout, what=f"a callback to interaction {self.id}"
        )

    async def settled(self, timeout: float = DEFAULT_TIMEOUT) -> InteractionCallback:
        """Wait for the callback and, when it deferred (types 5 and 6), for the edit or follow-up that answered it.

        On a loaded machine the bot may defer before it answers; a test reading what the bot said
        waits for the whole answer, never only for the acknowledgement.
        """
        callback = await self.response(timeout)
        if callback.type in (5, 6):

            def check() -> bool | None:
                original = self.original
                return (original is not None and bool(original.edited_at)) or bool(self.record.followup_ids) or None

            await self.state.changes.wait_for(check, timeout=timeout, what=f"the answer to {self.id}'s deferral")
        return callback

    async def followup(self, index: int = 0, timeout: float = DEFAULT_TIMEOUT) -> StoredMessage:
        """Wait for follow-up number ``index`` (0 is the first)."""

        def check() -> StoredMessage | None:
            return self.followups[index] if len(self.followups) > index else None

        return await self.state.changes.wait_for(check, timeout=timeout, what=f"follow-up #{index} of {self.id}")

    async def original_edited(self, times: int = 1, timeout: float = DEFAULT_TIMEOUT) -> StoredMessage:
        """Wait until ``@original`` has been edited ``times`` times (after the callback)."""

        def check() -> StoredMessage | None:
            original = self.original
            return original if original is not None and len(original.edited_at) >= times else None

        return await self.state.changes.wait_for(
            check, timeout=timeout, what=f"{times} edit(s) of {self.id}'s @original"
        )


@dataclass
class MessageHandle:
    """A message the fake delivered as MESSAGE_CREATE; await ``reply()`` for the bot's next message there."""

    message: StoredMessage
    sent_at: float
    delivered: bool
    state: FakeState

    @property
    def id(self) -> int:
        """The message id."""
        return self.message.id

    def _bot_messages_since(self) -> list[StoredMessage]:
        return [
            m
            for m in self.state.channel_messages(self.message.channel_id, include_deleted=True)
            if m.origin == "bot" and m.created_at >= self.sent_at
        ]

    async def reply(self, timeout: float = DEFAULT_TIMEOUT) -> StoredMessage:
        """Wait for the first message the bot posts in this channel after the event was sent."""

        def check() -> StoredMessage | None:
            found = self._bot_messages_since()
            return found[0] if found else None

        return await self.state.changes.wait_for(check, timeout=timeout, what=f"a bot message after message {self.id}")

    async def reaction(self, timeout: float = DEFAULT_TIMEOUT) -> list[str]:
        """Wait until the bot has reacted to this message; the emoji it used."""
        return await self.state.changes.wait_for(
            lambda: self.message.reactions or None, timeout=timeout, what=f"a bot reaction on message {self.id}"
        )

    def latency(self, reply: StoredMessage) -> float:
        """Seconds from sending this message's event to the bot's ``reply`` arriving."""
        return reply.created_at - self.sent_at

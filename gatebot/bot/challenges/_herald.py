"""Posts a challenge's messages in its server and keeps its announcement up to date.

An open challenge has one announcement (with its Play button) in its channel, recorded
in the database so it can be found again after a restart. The herald posts it when the
scheduler opens a challenge, updates its count of players as attempts begin, and when
the challenge closes posts the final standings and turns the announcement into a closed
notice without the button. Each is said in the server's ``preferred_locale``: an
announcement has no single reader. A post that fails (the channel is gone, or the bot may not write
there) is logged and skipped: the challenge itself goes on regardless.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable

import discord

from gatebot.bot.challenges._announcements import final_text, opened_text, retired_text
from gatebot.bot.challenges._views import CHALLENGE, ChallengeViews, server_speaker
from gatebot.bot.services import Services
from gatebot.locale import Translator
from gatebot.service.challenges import Announcement, ChallengeError, ChallengeInfo, Happening

log = logging.getLogger(__name__)


class Herald:
    """Challenge messages in their channels, over the bot's REST connection.

    It makes the challenge messages' components (:attr:`views`): a Play press ends in
    :meth:`count_players` here.
    """

    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.challenges = services.challenges
        #: Redraws the boards of attempts a closing ended.
        self.table = services.table
        self.views = ChallengeViews(services, self)
        self.challenges.server_say = self.server_say  # a daily's name is said in its server's language
        services.table.recount = self.count_attempt  # an attempt begun on the web table is counted too
        #: One update of an announcement at a time, so the last edit shows the latest count.
        self._editing: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def announce(self, announcement: Announcement) -> None:
        """Post what the scheduler claimed: an opened challenge, or a closed one's standings."""
        info = announcement.challenge
        await self.end_boards(announcement)
        if info.channel_id is None:
            log.info("challenge %s of server %s has no channel to be announced in", info.id, info.guild_id)
            return
        try:
            if announcement.happening is Happening.OPENED:
                await self.post_opened(info)
            else:
                await self.post_closed(announcement)
        except discord.HTTPException as error:
            log.warning(
                "could not announce that challenge %s %s in channel %s of server %s: %s",
                info.id, announcement.happening, info.channel_id, info.guild_id, error,
            )

    async def post_opened(self, info: ChallengeInfo) -> None:
        """Post an open challenge's announcement with its Play button, and record the message."""
        assert info.channel_id is not None
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        language = self._language(info)
        sent = await channel.send(opened_text(info, language), view=self.views.play_view(info.id, language))
        await self.challenges.record_announcement(info.id, info.channel_id, sent.id)

    async def post_closed(self, announcement: Announcement) -> None:
        """Post a closed challenge's final standings, then retire its announcement."""
        info = announcement.challenge
        assert info.channel_id is not None and announcement.leaderboard is not None
        board = announcement.leaderboard
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        view = self.views.page_view(CHALLENGE, info.id, board.page, board.pages)
        try:
            text = final_text(board, self._language(info))
            await channel.send(text, view=view if view is not None else discord.utils.MISSING)
        finally:
            await self.retire(info)  # the Play button goes even if the standings could not be posted

    async def end_boards(self, announcement: Announcement) -> None:
        """Redraw the boards of the attempts a closing ended: they show the end and a Share button."""
        for game_id in announcement.ended:
            try:
                await self.table.show_ended(game_id)
            except discord.HTTPException as error:
                log.info("could not redraw the board of game %s, ended by its challenge: %s", game_id, error)

    async def retire(self, info: ChallengeInfo, text: str | None = None) -> None:
        """Turn a closed (or removed) challenge's announcement into a notice without the Play button.

        It waits for a count update already under way, so that update can't land after the notice
        and show a removed challenge as open again; one that starts later finds it gone or closed.
        """
        async with self._lock(info.id):
            await self._edit(info, content=text or retired_text(info, self._language(info)), view=None)

    async def count_players(self, guild_id: int, challenge_id: int | None) -> None:
        """Redraw the announcement of a challenge (or of each open one, for None) with its count of players."""
        try:
            if challenge_id is None:
                infos = await self.challenges.open_challenges(guild_id)
            else:
                infos = [await self.challenges.get(guild_id, challenge_id)]
        except ChallengeError:
            return  # removed meanwhile: no announcement to update
        for info in infos:
            async with self._lock(info.id):
                try:
                    fresh = await self.challenges.get(guild_id, info.id)
                except ChallengeError:
                    continue
                if fresh.is_open(self.challenges.now()):
                    await self._edit(fresh, content=opened_text(fresh, self._language(fresh)))

    async def count_attempt(self, game_id: int) -> None:
        """An attempt begun away from chat (the web table's Play): redraw its challenge's count of players."""
        found = await self.challenges.attempt_challenge(game_id)
        if found is not None:
            await self.count_players(*found)

    def _lock(self, challenge_id: int) -> asyncio.Lock:
        """The lock one challenge's announcement is edited under, one edit at a time."""
        lock = self._editing.get(challenge_id)
        if lock is None:
            lock = self._editing[challenge_id] = asyncio.Lock()
        return lock

    def server_say(self, guild_id: int) -> Callable[[str], str]:
        """How a server says a sentence: in its language, as its announcements are (a daily's name, for one)."""
        return server_speaker(self.client.get_guild(guild_id)).say

    def _language(self, info: ChallengeInfo) -> Translator:
        """The language of the server a challenge belongs to (English if the bot no longer knows it)."""
        return server_speaker(self.client.get_guild(info.guild_id))

    async def _edit(self, info: ChallengeInfo, **changes: object) -> None:
        if info.channel_id is None or info.announcement_id is None:
            return
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        try:
            await channel.get_partial_message(info.announcement_id).edit(**changes)  # type: ignore[arg-type]
        except discord.HTTPException as error:
            log.info("could not update the announcement of challenge %s: %s", info.id, error)

"""The app's entry-point command: how Discord launches the table as an Activity from its App Launcher.

Once Activities are enabled for an application, Discord gives it a ``PRIMARY_ENTRY_POINT``
command (``/launch``, shown as Launch), and refuses a bulk overwrite of the global commands that
leaves it out (error 50240). discord.py's tree knows only slash and context-menu commands, so
:class:`LaunchingTree` adds the entry point to every global sync when the Activity is enabled
(DISCORD_CLIENT_ID): Discord's own name and handler (``DISCORD_LAUNCH_ACTIVITY``: Discord opens the
Activity itself, no interaction reaches the bot), offered through both installs in servers, DMs
and group DMs, as ``/gate`` is (:mod:`gatebot.bot.reach`). Guild syncs (GATEBOT_DEV_GUILD_ID) never
carry it: an entry point is global only.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.abc import Snowflake

#: Discord's ``ApplicationCommandType.PRIMARY_ENTRY_POINT`` and ``handler`` ``DISCORD_LAUNCH_ACTIVITY``.
PRIMARY_ENTRY_POINT, DISCORD_LAUNCH_ACTIVITY = 4, 2
#: Installs (a server's, a user's) and contexts (servers, the bot's DM, group DMs), as for /gate.
INSTALLS, CONTEXTS = [0, 1], [0, 1, 2]
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",  # Discord's default entry point, shown as Launch: kept as it is
    "description": "Play your game of Gate at the table, inside Discord",
    "type": PRIMARY_ENTRY_POINT,
    "handler": DISCORD_LAUNCH_ACTIVITY,
    "integration_types": INSTALLS,
    "contexts": CONTEXTS,
}


class LaunchingTree(app_commands.CommandTree[Any]):
    """The bot's command tree: with :attr:`entry_point` set, a global sync registers the entry point too."""

    #: Whether the app's Activity is enabled, so its entry point belongs with the commands.
    entry_point: bool = False

    async def sync(self, *, guild: Snowflake | None = None) -> list[app_commands.AppCommand]:
        """Sync as discord.py does; a global sync with the entry point added when the Activity is enabled."""
        if guild is not None or not self.entry_point:
            return await super().sync(guild=guild)
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        commands = self._get_all_commands(guild=None)
        translator = self.translator
        if translator:
            payload = [await command.get_translated_payload(self, translator) for command in commands]
        else:
            payload = [command.to_dict(self) for command in commands]
        payload.append(dict(ENTRY_POINT))
        try:
            data = await self._http.bulk_upsert_global_commands(self.client.application_id, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [app_commands.AppCommand(data=item, state=self._state) for item in data]

"""Tests of the games feature of the bot (gatebot.bot.games)."""

"""Tests of the challenges feature of the bot (gatebot.bot.challenges)."""

"""End-to-end tests of Discord bots against the fake Discord in tests/fake_discord."""

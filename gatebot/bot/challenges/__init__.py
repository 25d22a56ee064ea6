"""A server's challenges on Discord: ``/challenge``, ``/challenge-admin``, their buttons and announcements."""

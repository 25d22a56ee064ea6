"""Playing one's own game on Discord: the ``/gate`` commands and typed moves."""

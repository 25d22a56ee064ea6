"""The Discord adapter: commands, typed moves, board messages and buttons over the service.

Cogs only translate: an interaction or a message becomes a service call, and the reply
becomes Discord messages. Rules, SQL and game state live elsewhere.
"""

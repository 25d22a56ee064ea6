"""The floor bots of benchmarks/chat_floor.py answer each kind of move with the REST calls they stand for."""

import asyncio

from chat_floor import FIXED_ANSWER, FIXED_BOARD, KINDS, one, start, stop

#: The routes each floor bot's move takes: floor A one answer; floor B gatebot's calls for that kind of move.
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
EXPECTED = {
    "floor-a": {"slash": [CALLBACK], "button": [CALLBACK], "typed": ["POST /channels/{channel_id}/messages"]},
    "floor-b": {"slash": [EDIT, CALLBACK], "button": [CALLBACK],
                "typed": ["PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", EDIT]},
}


async def test_each_floor_bot_answers_a_slash_move_a_press_and_a_typed_move(tmp_path):
    async def play(name):
        bot = await start(name, tmp_path, None, None)
        try:
            player = bot.players[0]
            routes = {}
            for kind in KINDS:
                before = len(bot.fake.requests)
                await one(bot, player, kind)
                made = bot.fake.requests[before:]
                assert all(request.status < 400 for request in made), made
                routes[kind] = [request.route for request in made]
            assert routes == EXPECTED[name]
            texts = [request.json.get("content") or request.json["data"].get("content") for request in made
                     if isinstance(request.json, dict) and request.method != "PUT"]
            assert texts == [FIXED_ANSWER if name == "floor-a" else FIXED_BOARD]
            if name == "floor-b":
                board = bot.fake.message(player.board_id)
                assert board.content == FIXED_BOARD and "floor:draw" in board.custom_ids()
        finally:
            await stop(bot)

    await asyncio.gather(play("floor-a"), play("floor-b"))

"""How much of a text board a phone shows on one line: the model every compact board is drawn to.

There is no Discord client to measure here, so the width is derived once, from public sizes:

- a phone 380 CSS pixels wide (most phones are 360-430; 380 is the middle of the common ones);
- Discord's mobile message column leaves about 280 px inside a code block on it: 380 px less
  the avatar gutter (about 56 px), the message's side paddings (about 28 px) and the code
  block's own border and padding (about 16 px);
- Discord's code font at the mobile text size is about 7.8 px a character (a 13 px monospace
  face, whose advance is 0.6 em).

280 / 7.8 = 35.9: a line of :data:`PHONE_COLUMNS` = 36 characters fits (the figures are
good to a few pixels, so the nearest whole character is the model) and a longer one wraps,
and a wrapped board loses its columns. The compact text board of every variant keeps
every line within it (``tests/render/<family>/test_text.py``); ``docs/boards.md`` says what the
other board styles look like at this width and ``docs/previews.py`` draws them.
"""

from __future__ import annotations

#: The phone's screen width the compact board is drawn for, in CSS pixels.
PHONE_SCREEN_PX = 380
#: What a code block leaves for text on that screen: the screen less gutter, paddings and border.
PHONE_CODE_PX = 280
#: The advance of one character of Discord's code font at the mobile size, in pixels.
PHONE_CHAR_PX = 7.8
#: Characters a compact text board's line may take: ``round(PHONE_CODE_PX / PHONE_CHAR_PX)``.
PHONE_COLUMNS = round(PHONE_CODE_PX / PHONE_CHAR_PX)

"""Whole games for tests: move lists that end deals by the rules (the tests check them)."""

# A win of deal 1 in 113 moves, found by a beam search over the engine's legal moves.
WIN_DEAL_1 = (
    "3f d d w8 d d wf 7f d wf w8 d d d d d w7 d d wf 45 d d d wf d d wf 2f d d d wf w1 41 w8 18 "
    "r7 rf w7 d w5 d d w8 d d d d w1 21 d wf w3 l3 d w2 12 d w5 25 w2 w1 wf 4f 8f 2f d wf 1f 1f "
    "2f w5 wf wf 5f 2f 7f 3f 82:2 8f 1f 87 8f 3f 8f 3f 8f 51:1 5f 2f 53:1 5f d wf d wf 6f 4f 1f "
    "d wf 3f 2f 5f 5f 7f 5f 7f 5f 7f 5f 7f"
).split()
# Deal 10 played until no legal move is left (a seeded random playout).
LOST_DEAL_10 = (
    "3f rf 5f d d 71 d d d w4 d d d d d d d d d d d w1 41 d wf 5f d d d d d d d wf 2f d d d wf d "
    "d wf lf rf d w8 d d d d wf"
).split()
# Deal 1 played (a seeded random playout) until the stock is out: two moves are still legal,
# but the solver proves no win is left; 9 cards are home.
NO_WIN_DEAL_1 = (
    "3f 76 43 d d d d wf 6f d wf d d 35 53 d 35 53 35 53 d 35 d w7 d 53 d 35 wf d 78 w2 87 d d wf "
    "53 d 78 d d d 35 87 78 d d d d w4 d 53 d 87 24 78 87 w1 d d 35 53 d 78 d 35 d 41 87 d d d wf 6f "
    "r7 53 rf d"
).split()
# The first 101 moves of WIN_DEAL_1: the stock is out and the game can still be won.
STOCK_OUT_DEAL_1 = WIN_DEAL_1[:101]
# Deal 1 with the stock drawn out early: no card can go up safely, yet the solver finds a win
# (from STOCK_OUT_DEAL_1 the safe cards alone win, so Auto would never need the solver there).
NEEDS_SOLVER_DEAL_1 = (*WIN_DEAL_1[:94], "d", "d")

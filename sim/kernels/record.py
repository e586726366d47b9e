"""The record of one played hand: an int64 row with the named slots ``R_*`` below.

The engine fills the shared slots; a variant's hooks fill the slots marked as the variant's
(the ``R_VARIANT`` block, an indicator, a deal event of its own), and the variant names what it
keeps in them in its own ``record_slots`` module. ``sim.running.records`` turns blocks of rows
into pandas frames. Slot numbers never change meaning: stored runs are read back with them.
"""

from __future__ import annotations

R_DEALER = 0
R_OUTCOME = 1  # OUTCOME_*
R_WIN_KIND = 2  # how the hand was won (HOW_* of sim.kernels.moves and the variant), -1 on a draw
R_N_WINNERS = 3
R_WINNER = 4  # 4 slots: winner seats, -1 unused
R_FEATURES = 8  # 4 slots: feature bits per winner (the variant's pattern bits)
R_POINTS = 12  # 4 slots: base points per winner (the variant's settle hook)
R_PAYER = 16  # discarder / konger, -1 for a self-draw or a draw
R_VARIANT = 17  # 5 slots the variant's settle hook fills (named in the variant's record_slots)
R_DELTA = 22  # 4 slots: score change per seat
R_TURNS = 26  # tiles drawn from the wall in play (deal excluded)
R_TILES_LEFT = 27
R_INDICATOR = 28  # the flipped tile that chose the wilds (the variant's setup), -1 none
R_NEXT_DEALER = 29
R_DEAL_INSTANT = (
    30  # the variant's deal event: bit s set when seat s may win at once by its dealt hand
)
R_WINNING_TILE = 31  # -1 when the dealer wins on his dealt tiles (no tile drawn)
# Deal events (fixed at the deal, whatever the agents then do; sim.analysis.exact gives their
# exact odds)
R_DEALER_COMPLETE = 32  # 1 when the dealer's 14 dealt tiles are a legal self-drawn win
R_WILDS_DEALT = 33  # 4 slots: wild tiles each seat was dealt (a deal event); -1 unused
N_RECORD = 37

OUTCOME_DRAW = 0  # 荒庄
OUTCOME_WIN = 1

"""Wind River's components and numbers, as data (the seed's section 1, RULES.md "Components").

The board itself (its lanes, spaces and where the buffalo start) is in `board.py`.
"""

from __future__ import annotations

MIN_PLAYERS = 3
MAX_PLAYERS = 4

TEEPEES_PER_PLAYER = 7  # 4 colours x 7 teepees
BUFFALO = 36
RESOURCE_CUBES = 40  # never short: four stocks of at most ten hold them all

STARTING_RESOURCES = 1  # set-up, step 1
STOCK_LIMIT = 10  # 5.3.2: never more than ten resources in a personal stock
PLACEMENT_ROUNDS = 2  # section 3: one teepee each, then a second one each

MAX_BUFFALO_PER_SPACE = 5  # 5.1
SUPPLY_COST = 1  # 5.2: per teepee of yours left without a buffalo
ENTRY_FEE = 1  # 5.3.1: per player with a teepee on a space entered where others have one
INSERT_COST = 3  # 5.3.3

"""Play mode: a list on the table, as a game of taps.

``board`` makes a list's pieces and their markers from the rule set's play aids; ``taps`` are
the game's actions as records; ``game`` is what each does to a game's state, with undo;
``games`` keeps games as YAML files in the folder and decides how far a file is trusted;
``rolls`` reads set-up rolls; ``matchups`` gives a piece's odds against an opponent's unit.
"""

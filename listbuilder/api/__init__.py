"""Every player action, front-end neutral: what the command line and the web builder both call.

The API is a package of ordinary group modules; a face imports the group it needs
(``from listbuilder.api import editing``, then ``editing.apply_change(...)``). Each group's
``__all__`` is a player's verbs and the records they return, nothing else:

- ``rulesets``: the rule sets and their catalogs (``open_catalogs``, ``catalog_units``);
- ``lists``: a list read, costed and judged (``check_list``), a statline priced, the game's phrases;
- ``editing``: a new list, and every change to one as a value (``apply_change``, ``AddUnit``...);
- ``folders``: a builder's folder of lists (each list's state, changes with undo, deleted lists);
- ``files``: a command's output written atomically, never over what it read (``write_file``);
- ``sharing``: exports, imports, the editor schema, diffs and QR codes;
- ``printing``: rosters, reference sheets, rules cards as bytes or files, and the print templates;
- ``matchups``: exact odds, one attack or a list against a list;
- ``doctor``: the list doctor's ``fix`` and ``fill``, and a suggestion carried out;
- ``play``: games of a folder's lists, the taps that change them;
- ``authoring``: a catalog's own tests, a repricing, a faction book;
- ``club``: club mode, a club folder's members, their sign-in links and sessions, their lists;
- ``events``: a club's events, the lists submitted to them, their exports and packs.

Every verb raises the project's own errors (``listbuilder.errors``); none prints, exits or writes
a file unless its name says it writes. Results are immutable records with an ``as_json()`` that
gives the shape ``--json`` prints. Rendering returns bytes; ``files.write_file`` puts them on disk.
The heavy libraries (WeasyPrint, icepool, HiGHS) load inside the engine when a document, an odds
question or a doctor's question needs them; a command imports the group it needs where it runs.
"""

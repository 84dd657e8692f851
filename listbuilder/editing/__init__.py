"""Editing a list: every change a player makes, as a value, applied in one locked step.

- ``changes``: the changes (``AddUnit``, ``RemoveUnit``, ``SetCount``, ``SetField`` and
  ``SetLeaders``, ``SetLeader``, ``SetUnit``, ``UpdateUnits``: former names and retired units
  brought up to the catalogs), each a small immutable record that carries itself out;
  ``custom``: a custom unit added (``AddCustom``) or edited (``ReplaceCustom``);
  ``suggestions``: the doctor's (``ApplySuggestion``, ``FollowDoctor``); ``values``: the checks
  of counts, names and limits;
- ``apply``: ``apply_change`` (a file, under its lock, with its undo step) and ``apply_to_text``;
- ``plan``: one checked edit of a list's text (``ListEdit``), read back before it is kept;
- ``yamltext``: the splices that change a few values and keep every other byte;
- ``history``: the history's steps (``Undo``, ``Redo``), kept in ``FOLDER/.listbuilder/``, and
  the rules every path there obeys;
- ``lock``: one edit of a list at a time, between processes and threads, on POSIX and Windows;
- ``folder``: a builder's folder of lists (safe names, new names, deleted lists);
- ``newlist``: a new list's text; ``writer``: list data written out as YAML (imports).
"""

"""Editing a list: every change a player makes, as a value, applied in one locked step.

- ``changes``: the changes (``AddUnit``, ``RemoveUnit``, ``SetCount``, ``SetField`` and
  ``SetLeaders``, ``SetLeader``), each a small immutable record that carries itself out;
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

from typing import TYPE_CHECKING

from listbuilder import lazy

if TYPE_CHECKING:
    from listbuilder.editing.apply import apply_change as apply_change
    from listbuilder.editing.apply import apply_to_text as apply_to_text
    from listbuilder.editing.changes import AddUnit as AddUnit
    from listbuilder.editing.changes import Change as Change
    from listbuilder.editing.changes import RemoveUnit as RemoveUnit
    from listbuilder.editing.changes import SetCount as SetCount
    from listbuilder.editing.changes import SetField as SetField
    from listbuilder.editing.changes import SetLeader as SetLeader
    from listbuilder.editing.changes import SetLeaders as SetLeaders
    from listbuilder.editing.custom import AddCustom as AddCustom
    from listbuilder.editing.custom import ReplaceCustom as ReplaceCustom
    from listbuilder.editing.history import HistoryStep as HistoryStep
    from listbuilder.editing.history import Redo as Redo
    from listbuilder.editing.history import Undo as Undo
    from listbuilder.editing.plan import EditResult as EditResult
    from listbuilder.editing.suggestions import ApplySuggestion as ApplySuggestion
    from listbuilder.editing.suggestions import FollowDoctor as FollowDoctor

# Where each name comes from, imported on first use (PEP 562): a page that only shows a folder's
# lists (state, folder, history) loads none of the changes, the text splicing or the plan.
_FROM = {
    "listbuilder.editing.apply": "apply_change apply_to_text",
    "listbuilder.editing.changes": "AddUnit Change RemoveUnit SetCount SetField SetLeader SetLeaders",
    "listbuilder.editing.custom": "AddCustom ReplaceCustom",
    "listbuilder.editing.history": "HistoryStep Redo Undo",
    "listbuilder.editing.plan": "EditResult",
    "listbuilder.editing.suggestions": "ApplySuggestion FollowDoctor",
}
_MODULE_OF = lazy.modules_of(_FROM)

__all__ = sorted(_MODULE_OF)

__getattr__ = lazy.names_getattr(globals(), _MODULE_OF)

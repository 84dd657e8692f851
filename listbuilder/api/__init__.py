"""Every player action, front-end neutral: what the command line and the web builder both call.

Each function checks all of its options and raises the project's own errors
(``listbuilder.errors``); none prints, exits or writes a file unless its name says it writes.
Results are immutable records with an ``as_json()`` that gives the shape ``--json`` prints.
Rendering returns bytes; ``write_file`` is the separate step that puts them on disk, atomically.

Every name is imported on first use (PEP 562 ``__getattr__`` below): ``import listbuilder.api``
loads no action's module, so ``listbuilder validate`` pays only for what checking a list needs,
never for the print, odds, doctor or web stacks (the start-up budget, ``docs/architecture.md``).
"""

from types import FunctionType
from typing import TYPE_CHECKING, Any

from listbuilder import lazy
from listbuilder.api._arguments import checked

if TYPE_CHECKING:  # the names of _FROM below, for the type checker (tests/test_architecture.py compares them)
    from listbuilder.api.authoring import CaseResult as CaseResult
    from listbuilder.api.authoring import CatalogCheck as CatalogCheck
    from listbuilder.api.authoring import ListChange as ListChange
    from listbuilder.api.authoring import Repricing as Repricing
    from listbuilder.api.authoring import UnitPrice as UnitPrice
    from listbuilder.api.authoring import Verdict as Verdict
    from listbuilder.api.authoring import book_file_name as book_file_name
    from listbuilder.api.authoring import check_catalog as check_catalog
    from listbuilder.api.authoring import render_book as render_book
    from listbuilder.api.authoring import render_book_file as render_book_file
    from listbuilder.api.authoring import reprice as reprice
    from listbuilder.api.authoring import reprice_usage as reprice_usage
    from listbuilder.api.catalogs import CatalogListing as CatalogListing
    from listbuilder.api.catalogs import CatalogUnit as CatalogUnit
    from listbuilder.api.catalogs import catalog_units as catalog_units
    from listbuilder.api.catalogs import faction_named as faction_named
    from listbuilder.api.catalogs import get_system as get_system
    from listbuilder.api.catalogs import open_catalogs as open_catalogs
    from listbuilder.api.catalogs import system_choices as system_choices
    from listbuilder.api.catalogs import systems as systems
    from listbuilder.api.doctor import ASKS as ASKS
    from listbuilder.api.doctor import apply_suggestion as apply_suggestion
    from listbuilder.api.doctor import ask_doctor as ask_doctor
    from listbuilder.api.doctor import fill_list as fill_list
    from listbuilder.api.doctor import fill_text as fill_text
    from listbuilder.api.doctor import fix_list as fix_list
    from listbuilder.api.doctor import fix_text as fix_text
    from listbuilder.api.editing import apply_change as apply_change
    from listbuilder.api.editing import apply_to_text as apply_to_text
    from listbuilder.api.editing import create_list as create_list
    from listbuilder.api.editing import limit_option as limit_option
    from listbuilder.api.editing import list_file_name as list_file_name
    from listbuilder.api.editing import new_folder_list as new_folder_list
    from listbuilder.api.editing import new_list_text as new_list_text
    from listbuilder.api.folder import Changed as Changed
    from listbuilder.api.folder import change_list as change_list
    from listbuilder.api.folder import delete_list as delete_list
    from listbuilder.api.folder import deleted_lists as deleted_lists
    from listbuilder.api.folder import duplicate_list as duplicate_list
    from listbuilder.api.folder import folder_lists as folder_lists
    from listbuilder.api.folder import list_file as list_file
    from listbuilder.api.folder import list_state as list_state
    from listbuilder.api.folder import restore_list as restore_list
    from listbuilder.api.folder import tidy_folder as tidy_folder
    from listbuilder.api.lists import Pricing as Pricing
    from listbuilder.api.lists import check_list as check_list
    from listbuilder.api.lists import check_text as check_text
    from listbuilder.api.lists import price as price
    from listbuilder.api.lists import read_stats as read_stats
    from listbuilder.api.matchups import Matchups as Matchups
    from listbuilder.api.matchups import odds as odds
    from listbuilder.api.matchups import odds_lists as odds_lists
    from listbuilder.api.play import Board as Board
    from listbuilder.api.play import End as End
    from listbuilder.api.play import Game as Game
    from listbuilder.api.play import GameSummary as GameSummary
    from listbuilder.api.play import Mark as Mark
    from listbuilder.api.play import NextTurn as NextTurn
    from listbuilder.api.play import OddsChoices as OddsChoices
    from listbuilder.api.play import Piece as Piece
    from listbuilder.api.play import Played as Played
    from listbuilder.api.play import RollDice as RollDice
    from listbuilder.api.play import Score as Score
    from listbuilder.api.play import SituationOption as SituationOption
    from listbuilder.api.play import Start as Start
    from listbuilder.api.play import Tap as Tap
    from listbuilder.api.play import UndoTap as UndoTap
    from listbuilder.api.play import Unmark as Unmark
    from listbuilder.api.play import die_face as die_face
    from listbuilder.api.play import game_odds as game_odds
    from listbuilder.api.play import games_of as games_of
    from listbuilder.api.play import load_game as load_game
    from listbuilder.api.play import odds_choices as odds_choices
    from listbuilder.api.play import play_board as play_board
    from listbuilder.api.play import play_tap as play_tap
    from listbuilder.api.play import read_tap as read_tap
    from listbuilder.api.play import roll_result as roll_result
    from listbuilder.api.play import start_game as start_game
    from listbuilder.api.play import tap_words as tap_words
    from listbuilder.api.printing import Rendered as Rendered
    from listbuilder.api.printing import Written as Written
    from listbuilder.api.printing import document_format as document_format
    from listbuilder.api.printing import render_card as render_card
    from listbuilder.api.printing import render_card_file as render_card_file
    from listbuilder.api.printing import render_files as render_files
    from listbuilder.api.printing import render_reports as render_reports
    from listbuilder.api.printing import write_file as write_file
    from listbuilder.api.screens import card_page as card_page
    from listbuilder.api.screens import font_files as font_files
    from listbuilder.api.screens import odds_grid as odds_grid
    from listbuilder.api.screens import page_stylesheet as page_stylesheet
    from listbuilder.api.screens import prepare_pages as prepare_pages
    from listbuilder.api.screens import qr_svg as qr_svg
    from listbuilder.api.screens import render_page as render_page
    from listbuilder.api.screens import unit_rules as unit_rules
    from listbuilder.api.sharing import diff_files as diff_files
    from listbuilder.api.sharing import diff_lists as diff_lists
    from listbuilder.api.sharing import editor_schema as editor_schema
    from listbuilder.api.sharing import export_list as export_list
    from listbuilder.api.sharing import git_diff as git_diff
    from listbuilder.api.sharing import import_file as import_file
    from listbuilder.api.sharing import import_folder_list as import_folder_list
    from listbuilder.api.sharing import import_list as import_list
    from listbuilder.api.sharing import import_noted as import_noted
    from listbuilder.army.constraints import Problem as Problem
    from listbuilder.army.costing import CostPart as CostPart
    from listbuilder.army.phrases import amount as amount
    from listbuilder.army.phrases import citation as citation
    from listbuilder.army.phrases import headline as headline
    from listbuilder.army.phrases import leader_tag as leader_tag
    from listbuilder.army.phrases import problem_place as problem_place
    from listbuilder.army.phrases import stats_line as stats_line
    from listbuilder.army.phrases import total_text as total_text
    from listbuilder.army.report import Report as Report
    from listbuilder.doctor import DoctorAnswer as DoctorAnswer
    from listbuilder.editing.changes import AddUnit as AddUnit
    from listbuilder.editing.changes import Change as Change
    from listbuilder.editing.changes import RemoveUnit as RemoveUnit
    from listbuilder.editing.changes import SetCount as SetCount
    from listbuilder.editing.changes import SetField as SetField
    from listbuilder.editing.changes import SetLeader as SetLeader
    from listbuilder.editing.changes import SetLeaders as SetLeaders
    from listbuilder.editing.choices import UnitChoice as UnitChoice
    from listbuilder.editing.choices import unit_choices as unit_choices
    from listbuilder.editing.custom import AddCustom as AddCustom
    from listbuilder.editing.custom import ReplaceCustom as ReplaceCustom
    from listbuilder.editing.history import Redo as Redo
    from listbuilder.editing.history import Undo as Undo
    from listbuilder.editing.plan import EditResult as EditResult
    from listbuilder.editing.state import EntryRow as EntryRow
    from listbuilder.editing.state import ListState as ListState
    from listbuilder.editing.state import ListSummary as ListSummary
    from listbuilder.editing.suggestions import ApplySuggestion as ApplySuggestion
    from listbuilder.editing.suggestions import FollowDoctor as FollowDoctor
    from listbuilder.odds.ask import matrix_text as matrix_text
    from listbuilder.odds.ask import outcome_text as outcome_text
    from listbuilder.odds.matchups import Outcome as Outcome
    from listbuilder.rules.catalog import Catalogs as Catalogs
    from listbuilder.rules.formats import Unit as Unit
    from listbuilder.rules.system import RuleSetChoices as RuleSetChoices
    from listbuilder.rules.system import System as System
    from listbuilder.rules.system import SystemChoice as SystemChoice
    from listbuilder.share.diff import ListDiff as ListDiff

# Where each name comes from. Each module of this package is one group of actions; a new group is
# a new module, named here.
_FROM = {
    "listbuilder.api.authoring": (
        "CaseResult CatalogCheck ListChange Repricing UnitPrice Verdict book_file_name check_catalog "
        "render_book render_book_file reprice reprice_usage"
    ),
    "listbuilder.api.catalogs": (
        "CatalogListing CatalogUnit catalog_units faction_named get_system open_catalogs system_choices systems"
    ),
    "listbuilder.api.doctor": "ASKS apply_suggestion ask_doctor fill_list fill_text fix_list fix_text",
    "listbuilder.api.editing": (
        "apply_change apply_to_text create_list limit_option list_file_name new_folder_list new_list_text"
    ),
    "listbuilder.api.folder": (
        "Changed change_list delete_list deleted_lists duplicate_list folder_lists "
        "list_file list_state restore_list tidy_folder"
    ),
    "listbuilder.api.lists": "Pricing check_list check_text price read_stats",
    "listbuilder.api.matchups": "Matchups odds odds_lists",
    "listbuilder.api.play": (
        "Board End Game GameSummary Mark NextTurn OddsChoices Piece Played RollDice Score SituationOption "
        "Start Tap UndoTap Unmark die_face game_odds games_of load_game odds_choices play_board play_tap "
        "read_tap roll_result start_game tap_words"
    ),
    "listbuilder.api.printing": (
        "Rendered Written document_format render_card render_card_file render_files render_reports write_file"
    ),
    "listbuilder.api.screens": (
        "card_page font_files odds_grid page_stylesheet prepare_pages qr_svg render_page unit_rules"
    ),
    "listbuilder.api.sharing": (
        "diff_files diff_lists editor_schema export_list git_diff import_file import_folder_list import_list "
        "import_noted"
    ),
    # The records the actions return and the game's phrases for them, which the faces show.
    "listbuilder.army.constraints": "Problem",
    "listbuilder.army.costing": "CostPart",
    "listbuilder.army.phrases": "amount citation headline leader_tag problem_place stats_line total_text",
    "listbuilder.army.report": "Report",
    "listbuilder.doctor": "DoctorAnswer",
    "listbuilder.odds.matchups": "Outcome",
    "listbuilder.odds.ask": "matrix_text outcome_text",
    "listbuilder.rules.catalog": "Catalogs",
    "listbuilder.rules.formats": "Unit",
    "listbuilder.rules.system": "RuleSetChoices System SystemChoice",
    "listbuilder.share.diff": "ListDiff",
    # The changes a face builds and hands to apply_change or change_list (listbuilder.editing).
    "listbuilder.editing.changes": "AddUnit Change RemoveUnit SetCount SetField SetLeader SetLeaders",
    "listbuilder.editing.history": "Redo Undo",
    "listbuilder.editing.custom": "AddCustom ReplaceCustom",
    "listbuilder.editing.suggestions": "ApplySuggestion FollowDoctor",
    "listbuilder.editing.plan": "EditResult",
    # A list of a builder's folder as the builder shows it, and its line on the lists page.
    "listbuilder.editing.state": "EntryRow ListState ListSummary",
    # The catalog's units as a builder offers them to add.
    "listbuilder.editing.choices": "UnitChoice unit_choices",
}
_MODULE_OF = lazy.modules_of(_FROM)

__all__ = sorted(_MODULE_OF)


def _checked(value: Any) -> Any:
    """Every action checks the type of each argument it is given (see _arguments.py): wrapped
    here, once, so no action is exported unchecked. Classes (records, Catalogs) and constants are
    given as they are."""
    return checked(value) if isinstance(value, FunctionType) else value


__getattr__ = lazy.names_getattr(globals(), _MODULE_OF, _checked)  # a name of the API, on its first use


def __dir__() -> list[str]:
    return __all__

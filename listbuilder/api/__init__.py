"""Every player action, front-end neutral: what the command line and the web builder both call.

Each function checks all of its options and raises the project's own errors
(``listbuilder.errors``); none prints, exits or writes a file unless its name says it writes.
Results are immutable records with an ``as_json()`` that gives the shape ``--json`` prints.
Rendering returns bytes; ``write_file`` is the separate step that puts them on disk, atomically.

The heavy stacks (Jinja and WeasyPrint for printing, icepool for odds) are imported inside
the actions that need them, so ``listbuilder validate`` never pays for them.
"""

from types import FunctionType

from listbuilder.api._arguments import checked
from listbuilder.api.authoring import (
    CaseResult,
    CatalogCheck,
    ListChange,
    Repricing,
    UnitPrice,
    Verdict,
    book_file_name,
    check_catalog,
    render_book,
    render_book_file,
    reprice,
    reprice_usage,
)

# Each module of this package is one group of actions; a new group is a new module, re-exported here.
from listbuilder.api.catalogs import (
    CatalogListing,
    CatalogUnit,
    catalog_units,
    faction_named,
    get_system,
    open_catalogs,
    systems,
)
from listbuilder.api.doctor import apply_suggestion, apply_to_text, fill_list, fill_text, fix_list, fix_text
from listbuilder.api.editing import (
    add_to_text,
    add_unit,
    create_list,
    edit_list_file,
    limit_option,
    list_file_name,
    new_list_text,
    remove_from_text,
    remove_unit,
    set_in_text,
    set_value,
)
from listbuilder.api.folder import (
    ASKS,
    CHANGES,
    Changed,
    EntryRow,
    ListState,
    ListSummary,
    UnitChoice,
    ask_doctor,
    change_list,
    delete_list,
    deleted_lists,
    duplicate_list,
    folder_lists,
    import_folder_list,
    list_file,
    list_state,
    new_folder_list,
    parse_stat_form,
    restore_list,
    undo_change,
    unit_choices,
)
from listbuilder.api.lists import Pricing, check_list, check_text, parse_stat_options, price
from listbuilder.api.matchups import Matchups, odds, odds_lists
from listbuilder.api.printing import (
    Rendered,
    Written,
    document_format,
    render_card,
    render_card_file,
    render_files,
    render_reports,
    write_file,
)
from listbuilder.api.screens import (
    card_page,
    font_files,
    odds_grid,
    page_stylesheet,
    prepare_pages,
    qr_svg,
    render_page,
)
from listbuilder.api.sharing import (
    diff_files,
    diff_lists,
    editor_schema,
    export_list,
    git_diff,
    import_file,
    import_list,
    import_noted,
)
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "ASKS",
    "CHANGES",
    "CaseResult",
    "CatalogCheck",
    "CatalogListing",
    "CatalogUnit",
    "Catalogs",
    "Changed",
    "EntryRow",
    "ListChange",
    "ListState",
    "ListSummary",
    "Matchups",
    "Pricing",
    "Rendered",
    "Repricing",
    "UnitChoice",
    "UnitPrice",
    "Verdict",
    "Written",
    "add_to_text",
    "add_unit",
    "apply_suggestion",
    "apply_to_text",
    "ask_doctor",
    "book_file_name",
    "card_page",
    "catalog_units",
    "change_list",
    "check_catalog",
    "check_list",
    "check_text",
    "create_list",
    "delete_list",
    "deleted_lists",
    "diff_files",
    "diff_lists",
    "document_format",
    "duplicate_list",
    "edit_list_file",
    "editor_schema",
    "export_list",
    "faction_named",
    "fill_list",
    "fill_text",
    "fix_list",
    "fix_text",
    "folder_lists",
    "font_files",
    "get_system",
    "git_diff",
    "import_file",
    "import_folder_list",
    "import_list",
    "import_noted",
    "limit_option",
    "list_file",
    "list_file_name",
    "list_state",
    "new_folder_list",
    "new_list_text",
    "odds",
    "odds_grid",
    "odds_lists",
    "open_catalogs",
    "page_stylesheet",
    "parse_stat_form",
    "parse_stat_options",
    "prepare_pages",
    "price",
    "qr_svg",
    "remove_from_text",
    "remove_unit",
    "render_book",
    "render_book_file",
    "render_card",
    "render_card_file",
    "render_files",
    "render_page",
    "render_reports",
    "reprice",
    "reprice_usage",
    "restore_list",
    "set_in_text",
    "set_value",
    "systems",
    "undo_change",
    "unit_choices",
    "write_file",
]

# Every action checks the type of each argument it is given (see _arguments.py): wrapped here,
# once, so no action can be exported unchecked. Classes (records, Catalogs) are left as they are.
for _name in __all__:
    if isinstance(globals()[_name], FunctionType):
        globals()[_name] = checked(globals()[_name])
del _name

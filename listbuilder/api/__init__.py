"""Every player action, front-end neutral: what the command line and the web builder both call.

Each function checks all of its options and raises the project's own errors
(``listbuilder.errors``); none prints, exits or writes a file unless its name says it writes.
Results are immutable records with an ``as_json()`` that gives the shape ``--json`` prints.
Rendering returns bytes; ``write_file`` is the separate step that puts them on disk, atomically.

The heavy stacks (Jinja and WeasyPrint for printing, icepool for odds) are imported inside
the actions that need them, so ``listbuilder validate`` never pays for them.
"""

# Each module of this package is one group of actions; a new group is a new module, re-exported here.
from listbuilder.api.catalogs import CatalogListing, CatalogUnit, catalog_units, get_system, open_catalogs, systems
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
from listbuilder.api.lists import Pricing, check_list, check_text, parse_stat_options, price
from listbuilder.api.odds import Matchups, odds, odds_lists
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
    "CatalogListing",
    "CatalogUnit",
    "Catalogs",
    "Matchups",
    "Pricing",
    "Rendered",
    "Written",
    "add_to_text",
    "add_unit",
    "apply_suggestion",
    "apply_to_text",
    "catalog_units",
    "check_list",
    "check_text",
    "create_list",
    "diff_files",
    "diff_lists",
    "document_format",
    "edit_list_file",
    "editor_schema",
    "export_list",
    "fill_list",
    "fill_text",
    "fix_list",
    "fix_text",
    "get_system",
    "git_diff",
    "import_file",
    "import_list",
    "import_noted",
    "limit_option",
    "list_file_name",
    "new_list_text",
    "odds",
    "odds_lists",
    "open_catalogs",
    "parse_stat_options",
    "price",
    "remove_from_text",
    "remove_unit",
    "render_card",
    "render_card_file",
    "render_files",
    "render_reports",
    "set_in_text",
    "set_value",
    "systems",
    "write_file",
]

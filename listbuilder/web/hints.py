"""The web builder's words for each next step an engine message points to (``errors.Action``).

The engine names a step, never a command (see ``errors.ACTIONS``); the command line words it as
a command to type (``cli/views.command_hint``), and the builder as the button, form or page that
takes it here. No page may name a command, an option or a ``FILE`` to type: a test renders every
page and message for every rule set and looks for them.
"""

from __future__ import annotations

from listbuilder.errors import Action, ConflictError, ErrorDetail, ListbuilderError, shown

WORDS = {
    "catalog": "the catalog on the builder page lists its units",
    "add": "add some from the catalog",
    "fix": "“Suggest a fix” shows how to make it legal",
    "fill": "add a first unit from the catalog; “Fill to the limit” can add the rest",
    "new": "start a list with “New list” on the lists page",
    "export-json": "export the list as JSON from its “Print & share” page",
    "embed": "download it from “Print & share” with every unit written out",
    "fill-to": "set the list's limit under “Name and limit”",
    "output": "give the list another name",
    "price": "type each of its stats in the form",
    "price-unit": "it is in the catalog: add it from there",
    "catalogs": "or have the builder started with that folder of catalogs",
    "qr-on-roster": "untick the QR code, or print the roster too",
    "own-entry": "make the figures that carry none of its items, or two, a unit of their own",
    "limit": "type the list's limit under “Name and limit”",
    "rename": "“Use” writes its current name",
    "retired": "replace it from the catalog, or “Remove” it",
    "import-system": "or, for a list typed by hand, choose its rule set in the form",
    "size": "type the agreed size in the Size box",
    "adopt": "the club's organiser can make them a member's lists",
    "invite": "ask the club's organiser for a new sign-in link",
}


def hint(action: Action | None) -> str:
    """The builder's words for ``action`` ('' for none): how to take that step on these pages."""
    if action is None:
        return ""
    said = dict(action.example)
    if action.kind in ("rename", "retired"):
        unit = said.get("unit")
        if action.kind == "rename":
            return f"“Use {unit}” writes its current name"
        if unit:
            return f"“Use {unit}” puts it in its place, “Keep as my own unit” writes its stats into the list"
        return "“Keep as my own unit” writes its stats into the list, or “Remove” takes it out"
    if action.kind == "price-unit":
        unit = said.get("unit")
        return f"{unit} is in the catalog: add it from there" if unit else WORDS["price-unit"]
    # the unit's words, as the custom form and a list's repair both read them: never a file's key
    if action.kind == "own-entry" and "stat" in said:
        stat, figures = said.get("stat", "items"), said.get("figures", "figures")
        items = [value for key, value in action.example if key == "item"]
        if not items:
            return f"make the {figures} that carry none a unit of their own, with no {stat}"
        return f"make the {figures} that carry both a unit of their own, with both {' and '.join(items)}"
    if action.kind == "limit" and said.get("most", "").isdigit():
        return f"type a whole number of {said.get('key', 'points')} from 1 to {int(said['most']):,}"
    return WORDS.get(action.kind, "")


def web_hint(action: Action) -> str | None:
    """``hint`` as ``ListbuilderError.render`` takes it (``None``: nothing to add)."""
    return hint(action) or None


def error_text(exc: ListbuilderError) -> str:
    """An error as a page shows it: without the file's path (the page names the list), with the
    builder's words for its next steps. A list changed on disk is said in one sentence: the page
    shows the list as it is now, which is what its details would ask for."""
    if isinstance(exc, ConflictError):
        return exc.summary[:1].upper() + exc.summary[1:] + "."
    # The rule set's stats as a statline ('Figures 1, Weapons A + B') are the
    # command line's grammar: the builder's form names each stat, so the guide is its words alone.
    details = [
        ErrorDetail(message=hint(d.action)) if d.action is not None and d.action.kind == "price" else d
        for d in exc.details
    ]
    text = ListbuilderError(exc.summary, exc.file, details).render(web_hint)
    return text.replace(shown(exc.file) + ": ", "", 1) if exc.file else text

"""The odds grid on a printed reference sheet stays a page's worth, and says what it leaves out."""

from __future__ import annotations

import re

from listbuilder.api import lists, printing, rulesets
from listbuilder.odds.ask import PRINTED_COLUMNS, PRINTED_ROWS


def _crowd(n: int, name: str) -> str:
    # might-skirmish custom fighters: a class and a Might (source 004: every fighter has one stat)
    units = "".join(f"  - name: {name} {i:03d}\n    class: Soldier\n    might: {1 + i % 9}\n" for i in range(n))
    return f"system: might-skirmish\nname: {name}s\npoints: 1000\nunits:\n{units}"


def _grid(html: str) -> tuple[int, int]:
    table = html[html.index('<figure class="matrix">') :]
    table = table[: table.index("</figure>")]
    head = table[table.index("<thead>") : table.index("</thead>")]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return len(re.findall(r"<tr>", body)), head.count("<th>") - 1  # less the corner cell


def test_a_big_grid_prints_a_page_of_it_and_names_the_rest():
    books = rulesets.open_catalogs()
    mine = lists.check_text(_crowd(PRINTED_ROWS + 5, "Rat"), books)
    theirs = lists.check_text(_crowd(PRINTED_COLUMNS + 3, "Cat"), books)
    html = printing.render_reports([mine], format="html", only="reference", opponent=theirs).data.decode()
    assert _grid(html) == (PRINTED_ROWS, PRINTED_COLUMNS)
    assert f"the first {PRINTED_ROWS} of the {PRINTED_ROWS + 5} entries of Rats" in html
    assert f"the first {PRINTED_COLUMNS} of the {PRINTED_COLUMNS + 3} entries of Cats" in html
    assert "The odds of the two whole lists give every matchup." in html


def test_a_grid_that_fits_is_printed_whole_with_no_note():
    books = rulesets.open_catalogs()
    mine = lists.check_text(_crowd(PRINTED_ROWS, "Rat"), books)
    theirs = lists.check_text(_crowd(PRINTED_COLUMNS, "Cat"), books)
    html = printing.render_reports([mine], format="html", only="reference", opponent=theirs).data.decode()
    assert _grid(html) == (PRINTED_ROWS, PRINTED_COLUMNS)
    assert "matrix-note" not in html.split("</style>")[-1]

"""Rules are data: the engine never names a shipped rule set, its classes, types or units.

Reads every rule set in the repository's ``catalogs/`` folder and every module of the package,
and fails if a rule set's id, a value of its ``class`` or ``type`` stat, or a unit name appears in
code, a string or a comment. Docstrings and ``--help`` texts (``help=`` and ``epilog=``) may name
them as examples.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "catalogs"
PACKAGE = ROOT / "listbuilder"
NAMED_STATS = ("class", "type")
HELP_KEYWORDS = ("help", "epilog", "short_help")


def shipped_words() -> dict[str, str]:
    """Each game word of a shipped rule set, and what it is ('the rule set id', 'a unit of ...')."""
    words: dict[str, str] = {}
    for folder in sorted(p for p in CATALOGS.iterdir() if (p / "system.yaml").is_file()):
        system = yaml.safe_load((folder / "system.yaml").read_text(encoding="utf-8"))
        words[system["id"]] = "a rule set id"
        for key in NAMED_STATS:
            for choice in system.get("stats", {}).get(key, {}).get("choices", []):  # a variant may give none
                words[choice["name"]] = f"a {key} of {system['id']}"
        for faction in sorted((folder / "factions").glob("*.yaml")):
            for unit in yaml.safe_load(faction.read_text(encoding="utf-8"))["units"]:
                words[unit["name"]] = f"a unit of {system['id']}"
    return words


WORDS = shipped_words()
# In any case: ``name.lower() == "hunter"`` names a unit as surely as "Hunter" does.
PATTERN = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(WORDS, key=len, reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)
KINDS = {w.lower(): kind for w, kind in WORDS.items()}


def allowed_strings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that may name game words: docstrings and help texts."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                allowed.add(id(body[0].value))
        if isinstance(node, ast.keyword) and node.arg in HELP_KEYWORDS:
            allowed.update(id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant))
    return allowed


def joined(node: ast.AST) -> str | None:
    """The text of ``"might-" + "skirmish"``: strings added together, as one (None if not that)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = joined(node.left), joined(node.right)
        return None if left is None or right is None else left + right
    return None


def findings(source: str) -> list[tuple[int, str]]:
    """(line, word) for every game word in code, strings (not docstrings or help) and comments."""
    tree = ast.parse(source)
    allowed = allowed_strings(tree)
    found = []
    for node in ast.walk(tree):
        text = joined(node) if isinstance(node, ast.BinOp) else None
        if text is not None and all(id(n) in allowed for n in ast.walk(node) if isinstance(n, ast.Constant)):
            text = None  # a help text written in parts
        if text is not None:  # each part may be harmless alone ("might-", "skirmish")
            found += [(node.lineno, m.group(1)) for m in PATTERN.finditer(text)]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in allowed:
            found += [(node.lineno, m.group(1)) for m in PATTERN.finditer(node.value)]
        elif isinstance(node, ast.Name | ast.Attribute | ast.FunctionDef | ast.ClassDef | ast.arg):
            name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None)
            name = name or getattr(node, "arg", "")
            found += [(node.lineno, m.group(1)) for m in PATTERN.finditer(name)]
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found += [(token.start[0], m.group(1)) for m in PATTERN.finditer(token.string)]
    return sorted(set(found), key=found.index)  # a word in a joined string is found once


def test_the_words_come_from_every_shipped_rule_set():
    kinds = set(WORDS.values())
    shipped = [p for p in CATALOGS.iterdir() if (p / "system.yaml").is_file()]
    assert sum(k == "a rule set id" for k in WORDS.values()) == len(shipped) >= 5
    assert {"might-skirmish", "Soldier", "Monster", "Infantry", "Hunter", "Grandpa Bones"} <= set(WORDS)
    assert any(k.startswith("a type of") for k in kinds) and any(k.startswith("a class of") for k in kinds)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('if system == "might-skirmish":\n    pass\n', [(1, "might-skirmish")]),
        ("x = f'{n} Hunter'\n", [(1, "Hunter")]),
        ("x = 1  # Soldier counts double\n", [(1, "Soldier")]),
        ('def f():\n    """Soldier, Might 10."""\n', []),
        ('option(help="e.g. listbuilder cost might-skirmish --might 5")\n', []),
        ('x = "Hunters and a Huntress"\n', []),
        ('x = "might-skirmish-x"\n', []),
        # Not fooled by the case of a word, or by a word cut in two and joined again.
        ('if system.id.upper() == "MIGHT-SKIRMISH":\n    pass\n', [(1, "MIGHT-SKIRMISH")]),
        ('if unit.name.lower() == "hunter":\n    pass\n', [(1, "hunter")]),
        ('x = "might-" + "skirmish"\n', [(1, "might-skirmish")]),
        ('x = "Grandpa " + "Bo" + "nes"\n', [(1, "Grandpa Bones")]),
        ('option(help="e.g. listbuilder cost might-" + "skirmish")\n', []),
    ],
)
def test_the_check_finds_game_words_only_outside_docstrings_and_help(source, expected):
    assert findings(source) == expected


def test_no_module_names_a_shipped_rule_set_or_its_units():
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, word in findings(path.read_text(encoding="utf-8")):
            hits.append(f"{path.relative_to(ROOT)}:{line}: '{word}' ({KINDS[word.lower()]})")
    assert not hits, "game words belong in catalogs/, not in code:\n" + "\n".join(hits)


def cuts(source: str) -> list[int]:
    """The lines that make a word by cutting an 's' off another: ``removesuffix('s')``,
    ``rstrip("s")``, or ``{word[:-1]}`` in an f-string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            s_arg = [a for a in node.args if isinstance(a, ast.Constant) and a.value in ("s", "S")]
            if node.func.attr in ("removesuffix", "rstrip") and s_arg:
                found.append(node.lineno)
        elif isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Subscript):
            part = node.value.slice
            if isinstance(part, ast.Slice) and ast.unparse(part) == ":-1":
                found.append(node.lineno)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.slice) == ":-1":
            named = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", "")
            if WORDY.search(named):  # 'unit[:-1]', 'self.size_unit[:-1]': a word cut, not a list
                found.append(node.lineno)
    return sorted(set(found))


WORDY = re.compile(r"unit|word|measure|plural|noun|label", re.IGNORECASE)


@pytest.mark.parametrize(
    "source",
    [
        'x = w.removesuffix("s")\n',
        "x = w.removesuffix('s')\n",
        "x = w.rstrip('s')\n",
        "x = f'{w[:-1]} left'\n",
        "word = unit if left != 1 else unit[:-1]\n",
        "word = self.size_unit[:-1]\n",
    ],
)
def test_the_cut_check_sees_every_spelling(source):
    assert cuts(source) == [1]


def test_no_measure_word_is_made_by_cutting_an_s():
    # Singulars come from the rule set's words (measure, model, leader), never from a plural.
    for path in sorted(PACKAGE.rglob("*.py")):
        assert not cuts(path.read_text(encoding="utf-8")), path

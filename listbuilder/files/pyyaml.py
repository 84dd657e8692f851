"""PyYAML, imported here for the whole package, with the slowest part of its import done faster.

Importing yaml compiles ``Reader.NON_PRINTABLE``, a character class of everything printable, and
Python's ``re`` builds the table of so wide a class in pure Python: about 5 ms, a third of yaml's
import and a part of every command that reads a list. The same class written the other way round
(the few characters it leaves out) compiles in a tenth of that and matches exactly the same
characters (``tests/test_pyyaml_import.py`` compares the two on every code point). ``re`` keeps
each compiled pattern under its text and flags, so with the fast one kept under the slow one's
text, yaml's import finds it compiled. Where ``re`` keeps no such mapping (another Python), or
yaml is imported already, nothing is changed and yaml compiles its own, as it always did.

Every module of the package imports yaml from here (``tests/test_pyyaml_import.py`` checks that).
"""

import re
import sys

# yaml/reader.py's pattern, character for character, and its complement among the code points.
NON_PRINTABLE = "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
LEFT_OUT = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"


def _precompile() -> None:
    kept = getattr(re, "_cache", None)
    if isinstance(kept, dict) and "yaml" not in sys.modules:
        kept.setdefault((str, NON_PRINTABLE, 0), re.compile(LEFT_OUT))


_precompile()

import yaml  # noqa: E402  # after _precompile, which must come first

try:  # the safe loader: libyaml's, which is much faster, where PyYAML was built with it
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as Loader  # type: ignore[assignment]  # the C loader's pure-Python twin

__all__ = ["Loader", "yaml"]

"""PyYAML is imported in one place (``files/pyyaml.py``), with its slowest pattern compiled the fast way.

The fast pattern must match exactly the characters PyYAML's own does, on every code point, and
must be the one PyYAML's reader ends up with; and no other module may import yaml first.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from listbuilder.files import pyyaml

PACKAGE = Path(pyyaml.__file__).resolve().parent.parent


def test_the_fast_pattern_matches_exactly_what_pyyamls_own_matches():
    slow = re._compiler.compile(pyyaml.NON_PRINTABLE, 0)  # PyYAML's, compiled anew: not the one re keeps
    fast = re.compile(pyyaml.LEFT_OUT)
    every = "".join(map(chr, range(0x110000)))
    assert [m.start() for m in slow.finditer(every)] == [m.start() for m in fast.finditer(every)]
    # C0 but tab, LF and CR (9 + 2 + 18); DEL to U+0084 (6); U+0086 to U+009F (26); the surrogates; U+FFFE, U+FFFF
    assert len(fast.findall(every)) == 29 + 6 + 26 + 2048 + 2


def test_the_pattern_is_pyyamls_own_text():
    source = (Path(pyyaml.yaml.__file__).parent / "reader.py").read_text(encoding="utf-8")
    written = re.search(r"NON_PRINTABLE = re\.compile\(('[^']*')\)", source)
    assert written is not None and ast.literal_eval(written.group(1)) == pyyaml.NON_PRINTABLE


def test_pyyamls_reader_gets_the_fast_pattern_in_a_fresh_process():
    code = (
        "import yaml.reader, sys\n"
        "print(yaml.reader.Reader.NON_PRINTABLE.pattern == sys.modules['listbuilder.files.pyyaml'].LEFT_OUT)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import listbuilder.files.pyyaml\n" + code], capture_output=True, text=True, timeout=60
    )
    assert out.stdout == "True\n", out.stderr


def test_no_module_but_pyyaml_py_imports_yaml():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            if any(n == "yaml" or n.startswith("yaml.") for n in names):
                found.append(str(path.relative_to(PACKAGE)))
    assert sorted(set(found)) == ["files/pyyaml.py"]

"""Every Python started with this folder first on PYTHONPATH runs listbuilder as Windows would,
when ``LISTBUILDER_SIMULATE=windows`` (see ``simulate_windows.py``)."""

import os
import sys

# subprocess tells Windows by trying to import msvcrt, and the stand-in msvcrt beside this file
# would make it reach for Windows' own _winapi: import it first, with msvcrt not to be found.
_had = sys.modules.get("msvcrt")
sys.modules["msvcrt"] = None  # type: ignore[assignment]
import subprocess  # noqa: E402, F401

if _had is None:
    del sys.modules["msvcrt"]
else:
    sys.modules["msvcrt"] = _had

if os.environ.get("LISTBUILDER_SIMULATE") == "windows":
    import simulate_windows

    simulate_windows.apply()

"""Every Python started with this folder first on PYTHONPATH runs listbuilder as Windows would,
when ``LISTBUILDER_SIMULATE=windows`` (see ``simulate_windows.py``)."""

import os

if os.environ.get("LISTBUILDER_SIMULATE") == "windows":
    import simulate_windows

    simulate_windows.apply()

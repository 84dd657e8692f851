"""The web builder (``listbuilder serve``): an ASGI app on Starlette over the same engine as the CLI.

``create_app(folder, ...)`` makes the app; any ASGI server runs it (``uvicorn
'listbuilder.web:create_app' --factory``). Importing this package imports Starlette, so only the
``serve`` command does.
"""

from listbuilder.web.app import create_app

__all__ = ["create_app"]

"""The command that serves a folder of lists to a browser, as typer reads it: serve.

(A plain ``serve`` is read without typer, by ``serving.quick_arguments``.)"""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.options import CatalogsOption, TemplatesOption
from listbuilder.cli.serving import serve_folder


def serve(
    folder: Annotated[Path, typer.Argument(help="The folder of list files (default: this one).")] = Path("."),
    port: Annotated[int, typer.Option("--port", help="The port (0: any free one).")] = 8000,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on; anything but 127.0.0.1 lets others edit.")
    ] = "127.0.0.1",
    read_only: Annotated[bool, typer.Option("--read-only", help="Browse and print only.")] = False,
    no_open: Annotated[bool, typer.Option("--no-open", help="Do not open the browser.")] = False,
    templates: TemplatesOption = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Build lists in the browser: serve the list files of FOLDER, print the address and open it.

    Every change is saved to the list file at once, keeping its comments; undo and redo are kept
    in FOLDER/.listbuilder/. Ctrl-C stops the server.

    Example: listbuilder serve examples
    """
    serve_folder(folder, port, host, read_only, no_open, templates, catalogs)

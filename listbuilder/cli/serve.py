"""The command that serves a folder of lists to a browser: serve."""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.options import CatalogsOption, TemplatesOption, fail
from listbuilder.errors import ErrorDetail, InputError, ListbuilderError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


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
    # start-up: the server's modules (uvicorn, Starlette, the web builder) load only to serve,
    # not when --help builds every command
    import socket
    import sys
    import threading

    import uvicorn

    from listbuilder.web import create_app, warm_up

    if not 0 <= port <= 65535:
        fail(InputError(f"--port {port} is not a port", details=[ErrorDetail(message="use 1 to 65535, or 0")]))
    if host not in LOOPBACK:
        typer.echo(
            f"warning: serving on {host}: anyone who can reach this address can read and edit the lists in {folder}",
            err=True,
        )
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Connections inherit this: a page goes out at once instead of waiting 40 ms for the
        # browser's delayed acknowledgement of its headers (Nagle's algorithm).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)  # from here on, a browser's request waits for the server instead of failing
    except OSError as exc:
        fail(
            InputError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                details=[ErrorDetail(message="another program may use the port", hint="try --port 0 for a free one")],
            )
        )
    bound = sock.getsockname()[1]
    try:
        app = create_app(folder, read_only=read_only, catalogs=catalogs, templates=templates, host=host, port=bound)
    except ListbuilderError as exc:
        sock.close()
        fail(exc)
    # On every interface, this machine's own browser reaches it on the loopback address.
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    typer.echo(f"listbuilder: serving {folder.resolve()} at {url}{' (read-only)' if read_only else ''}")
    typer.echo("press Ctrl-C to stop")
    sys.stdout.flush()
    threading.Thread(target=warm_up, args=(app,), daemon=True).start()  # while uvicorn starts
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
    if not no_open:
        import webbrowser  # start-up: loads its launchers (a few ms), only to open one

        threading.Timer(0.5, webbrowser.open, [url]).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down gracefully, then raises the Ctrl-C again
        pass
    finally:
        sock.close()
    typer.echo("listbuilder: stopped")

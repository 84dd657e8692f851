"""The command that serves a folder of lists to a browser: serve."""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, TemplatesOption
from listbuilder.cli.output import fail, say
from listbuilder.errors import InputError, ListbuilderError

if TYPE_CHECKING:
    import socket

    import uvicorn

LOOPBACK = ("127.0.0.1", "localhost", "::1")

# Work-heavy answers (the doctor, odds, PDFs: up to HEAVY_AT_ONCE at once) run on worker threads,
# and Python hands its interpreter lock between threads every 5 ms by default: an ordinary page
# then waits about that long at every turn, and took 170-340 ms beside two doctors at work.
# Handing it on every 0.5 ms keeps such a page near 60 ms (benchmarks/bench_doctor_bounds.py).
# It is the whole process's setting, so the server's start-up sets it, not the app.
SWITCH_SECONDS = 0.0005

COLLECTOR_THRESHOLDS = (50_000, 100, 100)  # the server's pace of collections (see serve_folder)


@command("serve")
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


def serve_folder(
    folder: Path,
    port: int,
    host: str,
    read_only: bool,
    no_open: bool,
    templates: Path | None,
    catalogs: list[Path] | None,
) -> None:
    """Serve the list files of ``folder`` until Ctrl-C; a failure to start says why and exits."""
    if not 0 <= port <= 65535:
        fail(InputError.detailed(f"--port {port} is not a port", "use 1 to 65535, or 0"))
    if host not in LOOPBACK:
        say(
            f"warning: serving on {host}: anyone who can reach this address can read and edit the lists in {folder}",
            err=True,
        )
    sock = listening(host, port)
    try:
        server, url = _ready(sock, folder, read_only, templates, catalogs, host)
    except KeyboardInterrupt:  # Ctrl-C while it reads the folder: it stops, as it would once serving
        sock.close()
        say("listbuilder: stopped")
        return
    # From here on the server collects (``main`` left the collector off for the start-up), at a
    # slower pace than Python's default: a change to a long list keeps what it reads to its end.
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    gc.enable()
    sys.setswitchinterval(SWITCH_SECONDS)
    if not no_open:
        import webbrowser  # serve's own modules load only when it runs: --version's budget

        threading.Timer(0.5, webbrowser.open, [url]).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down gracefully, then raises the Ctrl-C again
        pass
    finally:
        sock.close()
    say("listbuilder: stopped")


def _ready(
    sock: socket.socket, folder: Path, read_only: bool, templates: Path | None, catalogs: list[Path] | None, host: str
) -> tuple[uvicorn.Server, str]:
    """The server of ``folder``'s app on ``sock``, and its address."""
    import uvicorn  # the server and the web builder load only to serve

    from listbuilder.web import create_app

    bound = sock.getsockname()[1]
    try:
        app = create_app(folder, read_only=read_only, catalogs=catalogs, templates=templates, host=host, port=bound)
    except ListbuilderError as exc:
        sock.close()
        fail(exc)
    # On every interface, this machine's own browser reaches it on the loopback address.
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    say(f"listbuilder: serving {folder.resolve()} at {url}{' (read-only)' if read_only else ''}")
    say("press Ctrl-C to stop")
    # h11 and no websockets, named: uvicorn's "auto" tries to import httptools and two websocket
    # packages first (3 ms of every start), and the builder speaks plain HTTP/1.1.
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", http="h11", ws="none")
    return uvicorn.Server(config), url


def listening(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or a failure that says why."""
    import socket  # as webbrowser in serve_folder: only when serve runs

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
            InputError.detailed(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                "another program may use the port",
                hint="try --port 0 for a free one",
            )
        )
    return sock

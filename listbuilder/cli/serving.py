"""Serving a folder of lists to a browser: what ``listbuilder serve`` does once its arguments are
read, and the quick reading of them that lets a plain ``serve`` start without typer.

Start-up is part of ``serve``: from the command to its first page it may take at most 1.5 times a
bare Starlette app under uvicorn (``benchmarks/bench_serve.py``), and typer alone costs a third of
that margin. So ``quick_arguments`` reads the common forms of the command line (a folder, the
options with a plain value, the flags) and answers None for anything else (``--help``, a value it
is not sure of, an unknown option, a second folder): typer then reads them as the ``serve``
command in ``serve.py`` declares, with its own help and errors. ``tests/test_serve_arguments.py``
proves that the two readings agree on every command line the quick one accepts.
"""

from __future__ import annotations

import gc
import socket
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from listbuilder.cli.output import fail, say
from listbuilder.collector import few_collections
from listbuilder.errors import ErrorDetail, InputError, ListbuilderError

if TYPE_CHECKING:
    import uvicorn

LOOPBACK = ("127.0.0.1", "localhost", "::1")

# The options with a value, and the flags, as serve.py declares them (a test compares the two).
VALUED = {"--port": "port", "--host": "host", "--templates": "templates", "--catalogs": "catalogs"}
FLAGS = {"--read-only": "read_only", "--no-open": "no_open"}
TEMPLATES_VARIABLE = "LISTBUILDER_TEMPLATES"  # --templates' envvar in serve.py


def quick_arguments(args: Sequence[str], environ: Mapping[str, str]) -> dict[str, Any] | None:
    """``serve_folder``'s arguments from ``serve``'s command line, or None if only typer may say."""
    found: dict[str, Any] = {}
    folders: list[str] = []
    catalogs: list[Path] = []
    words = list(args)
    while words:
        word = words.pop(0)
        name, equals, value = word.partition("=")
        if name in FLAGS and not equals:
            found[FLAGS[name]] = True
            continue
        if name in VALUED:
            if not equals:
                if not words:
                    return None
                value = words.pop(0)
            if not value or value.startswith("-"):
                return None
            if name == "--catalogs":
                catalogs.append(Path(value))
            elif VALUED[name] in found:
                return None  # given twice: typer says which one counts
            elif name == "--port":
                if not (value.isascii() and value.isdigit()) or len(value) > 5:
                    return None  # typer says what is wrong with it (int() refuses 4,300 digits and more)
                found["port"] = int(value)
            else:
                found[VALUED[name]] = Path(value) if name == "--templates" else value
            continue
        if word.startswith("-") or folders:
            return None  # --help, an option serve does not have, '--', or a second folder
        folders.append(word)
    if "templates" not in found and environ.get(TEMPLATES_VARIABLE):
        found["templates"] = Path(environ[TEMPLATES_VARIABLE])
    return {
        "folder": Path(folders[0]) if folders else Path("."),
        "port": found.get("port", 8000),
        "host": found.get("host", "127.0.0.1"),
        "read_only": found.get("read_only", False),
        "no_open": found.get("no_open", False),
        "templates": found.get("templates"),
        "catalogs": catalogs or None,
    }


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
        fail(InputError(f"--port {port} is not a port", details=[ErrorDetail(message="use 1 to 65535, or 0")]))
    if host not in LOOPBACK:
        say(
            f"warning: serving on {host}: anyone who can reach this address can read and edit the lists in {folder}",
            err=True,
        )
    sock = listening(host, port)
    # Start-up makes objects that live as long as the server (its modules, the app, the folder's
    # lists read once): the collector would walk them again and again and free none of them (a
    # tenth of serve's start-up). So it waits until the server is ready, and from then on leaves
    # them out of its rounds (gc.freeze).
    try:
        with few_collections():
            server, url = _ready(sock, folder, read_only, templates, catalogs, host)
            gc.freeze()  # before the collector starts again, or its first round walks them all (10 ms)
    except KeyboardInterrupt:  # Ctrl-C while it reads the folder: it stops, as it would once serving
        sock.close()
        say("listbuilder: stopped")
        return
    if not no_open:
        import webbrowser  # start-up: loads its launchers (a few ms), only to open one

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
    """The server of ``folder``'s app on ``sock``, its first page's work done, and its address."""
    # start-up: the server's modules (uvicorn, Starlette, the web builder) load only to serve,
    # not when --help builds every command
    import uvicorn

    from listbuilder.web import create_app, warm_later, warm_up

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
    warm_up(app)  # the first page's work, done once: a browser's request waits for it in the backlog
    threading.Thread(target=warm_later, args=(app,), daemon=True).start()
    # h11 and no websockets, named: uvicorn's "auto" tries to import httptools and two websocket
    # packages first (3 ms of every start), and the builder speaks plain HTTP/1.1.
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", http="h11", ws="none")
    return uvicorn.Server(config), url


def listening(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or a failure that says why."""
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
    return sock

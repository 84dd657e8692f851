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
    certfile: Annotated[
        Path | None, typer.Option("--certfile", help="Serve HTTPS with this certificate (PEM).", show_default=False)
    ] = None,
    keyfile: Annotated[
        Path | None, typer.Option("--keyfile", help="The certificate's private key (PEM).", show_default=False)
    ] = None,
    proxy_headers: Annotated[
        bool,
        typer.Option(
            "--proxy-headers",
            help="Behind a proxy on this machine: take the client's address and HTTPS from its X-Forwarded-* headers.",
        ),
    ] = False,
) -> None:
    """Build lists in the browser: serve the list files of FOLDER, print the address and open it.

    Every change is saved to the list file at once, keeping its comments; undo and redo are kept
    in FOLDER/.listbuilder/. Ctrl-C stops the server.

    A club folder (listbuilder club new) is served to its members: each signs in and builds their own lists.

    Example: listbuilder serve examples
    """
    if (certfile is None) != (keyfile is None):
        fail(InputError.detailed("--certfile and --keyfile go together", "give both, or neither for plain HTTP"))
    tls = (certfile, keyfile) if certfile is not None and keyfile is not None else None
    serve_folder(folder, port, host, read_only, no_open, templates, catalogs, tls=tls, proxy_headers=proxy_headers)


def serve_folder(
    folder: Path,
    port: int,
    host: str,
    read_only: bool,
    no_open: bool,
    templates: Path | None,
    catalogs: list[Path] | None,
    *,
    tls: tuple[Path, Path] | None = None,
    proxy_headers: bool = False,
) -> None:
    """Serve the list files of ``folder`` until Ctrl-C; a failure to start says why and exits."""
    if not 0 <= port <= 65535:
        fail(InputError.detailed(f"--port {port} is not a port", "use 1 to 65535, or 0"))
    from listbuilder.api import club  # is it a club's folder: a file's existence, no server loaded

    a_club = club.is_club(folder)
    if host not in LOOPBACK and not a_club:
        say(
            f"warning: serving on {host}: anyone who can reach this address can read and edit the lists in {folder}",
            err=True,
        )
    if host not in LOOPBACK and a_club and tls is None:
        say(
            f"warning: serving the club on {host} over plain HTTP: each member's session cookie crosses the network"
            " in clear text; give --certfile and --keyfile, or serve behind a proxy with HTTPS (docs: club mode)",
            err=True,
        )
    for path in tls or ():
        if not path.is_file():
            fail(InputError.detailed("no such file", "give the certificate and key files (PEM)", file=path))
    sock = listening(host, port)
    try:
        server, url = _ready(sock, folder, read_only, templates, catalogs, host, tls, proxy_headers)
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
    sock: socket.socket,
    folder: Path,
    read_only: bool,
    templates: Path | None,
    catalogs: list[Path] | None,
    host: str,
    tls: tuple[Path, Path] | None = None,
    proxy_headers: bool = False,
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
    url = f"{'https' if tls else 'http'}://{shown}:{bound}/"
    say(f"listbuilder: serving {folder.resolve()} at {url}{' (read-only)' if read_only else ''}")
    say("press Ctrl-C to stop")
    # h11 and no websockets, named: uvicorn's "auto" tries to import httptools and two websocket
    # packages first (3 ms of every start), and the builder speaks plain HTTP/1.1.
    # (access_log off: a sign-in link's secret is in its address, and nothing secret goes to a log)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        http="h11",
        ws="none",
        proxy_headers=proxy_headers,
        ssl_certfile=str(tls[0]) if tls else None,
        ssl_keyfile=str(tls[1]) if tls else None,
    )
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

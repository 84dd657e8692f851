"""The play page of a list: its pieces with their markers, the turn, scores, set-up rolls, odds, the log.

Every tap is a plain form posted to ``/list/{file}/play/tap`` and redirected (303) back to the
page; with htmx the same form answers with the piece's row (and the turn bar and log, out of
band) or the game, so nothing else on the page moves. The server's checks (Host, origin,
token, read-only, body size) are the ones every write has: ``form_of`` and the guard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from listbuilder.errors import InputError, ListbuilderError
from listbuilder.web.forms import index
from listbuilder.web.site import Endpoint, Site, blocking, error_message, form_of, is_htmx, list_url, one, unreadable

if TYPE_CHECKING:
    from listbuilder.api import play

LOG_SHOWN = 12  # the newest taps the page lists; the file keeps them all


def play_url(file: str) -> str:
    return f"{list_url(file)}/play"


def _context(site: Site, file: str, game_id: str | None) -> dict[str, Any]:
    from listbuilder.api import play  # games and the odds' stack: loaded by the first play page

    board = play.play_board(site.folder, file, site.catalogs)
    games = play.games_of(site.folder, file)
    game = None
    error = ""
    if games:
        chosen = game_id if game_id is not None else games[0].id
        try:
            game = play.load_game(site.folder, file, site.catalogs, chosen, board=board)
        except ListbuilderError as exc:
            error = error_message(exc)
    return {"title": f"{board.name}: play", "games": games, "game_error": error, **_game_context(file, board, game)}


def _game_context(file: str, board: play.Board, game: play.Game | None) -> dict[str, Any]:
    """What the game's templates need besides the game itself."""
    from listbuilder.api import play  # games and the odds' stack: loaded by the first play page

    return {
        "board": board,
        "game": game,
        "file": file,
        "base": play_url(file),
        "log_shown": LOG_SHOWN,
        "die_face": play.die_face,
        "roll_result": play.roll_result,
        "tap_words": play.tap_words,
        "leader_word": board.report.system.definition.leader.title,
    }


def play_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            context = await blocking(_context, site, file, request.query_params.get("game"))
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        return site.page("play.html", request, **context)

    return handler


def _tap_fields(fields: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The pieces' buttons share one form: the pressed one says what it does, ``do=mark|Stunned|Sentry 2``
    (tap, marker, piece; a piece's name may hold anything, so it comes last)."""
    out = {k: list(v) for k, v in fields.items()}
    action = one(fields, "do")
    if action:
        tap, _, rest = action.partition("|")
        marker, _, piece = rest.partition("|")
        out.update(tap=[tap], marker=[marker], piece=[piece])
    return out


def tap(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = _tap_fields(await form_of(request, site))
        answer: Response = await blocking(_tap, site, request, file, fields)
        return answer

    return handler


def _tap(site: Site, request: Request, file: str, fields: Mapping[str, list[str]]) -> Response:
    from listbuilder.api import play  # games and the odds' stack: loaded by the first play page

    game_id = one(fields, "game")
    try:
        tap_record = play.read_tap(fields)
        if isinstance(tap_record, play.Start):
            played = play.play_tap(site.folder, file, site.catalogs, "0", tap_record)
        else:
            if game_id is None:
                raise InputError("which game? The form did not say", details=None)
            played = play.play_tap(site.folder, file, site.catalogs, game_id, tap_record)
    except ListbuilderError as exc:
        if is_htmx(request):
            # the page stays as it is; only the turn bar's notice line says why (out of band)
            answer = site.page("_play_notice.html", request, 400, error=error_message(exc))
            answer.headers["HX-Reswap"] = "none"
            return answer
        try:
            context = _context(site, file, game_id)
        except ListbuilderError:
            return unreadable(site, request, exc)
        return site.page("play.html", request, 400, **context, error=error_message(exc))
    game = played.game
    if not is_htmx(request):
        tapped = one(fields, "piece")
        anchor = ""
        if tapped is not None:
            index = next((i for i, p in enumerate(game.board.pieces, 1) if p.key == tapped), None)
            anchor = f"#piece-{index}" if index else ""
        query = urlencode({"game": game.id, "done": played.done})
        return RedirectResponse(f"{play_url(file)}?{query}{anchor}", status_code=303)
    context = {**_game_context(file, game.board, game), "notice": played.done}
    piece_key = one(fields, "piece")
    if isinstance(tap_record, play.Mark | play.Unmark) and piece_key is not None:
        for index, piece in enumerate(game.board.pieces, 1):
            if piece.key == piece_key:
                return site.page("_play_tapped.html", request, piece=piece, index=index, **context)
    return site.page("_play_game.html", request, games=play.games_of(site.folder, file), **context)


def _situation(query: Mapping[str, str], options: Sequence[play.SituationOption]) -> dict[str, str | bool | int]:
    """The odds form's fields as the situation's values: a flag ticked or not, each other option's text."""
    values: dict[str, str | bool | int] = {}
    for option in options:
        value = query.get(option.key)
        if option.kind == "flag":
            values[option.key] = value in ("on", "yes", "true", "1")
        elif value:
            values[option.key] = value[:80]
    return values


def _words(situation: Mapping[str, str | bool | int]) -> list[str]:
    """The situation as the page says it beside the odds, in the form's own words: each option by
    its label with its value ("attack ranged", "cover partial"), a flag by its label when it is
    ticked ("defending"), never the ``OPTION=VALUE`` words of the command line."""
    words = []
    for key, value in situation.items():
        label = key.replace("_", " ")
        if value is True:
            words.append(label)
        elif value is not False:
            words.append(f"{label} {value}")
    return words


def odds(site: Site) -> Endpoint:
    """The odds of a piece against an opponent's unit: the odds page, or its answer in place (htmx)."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            context = await blocking(_odds_context, site, file, request.query_params)
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        if is_htmx(request):
            return site.page("_play_odds.html", request, **context)
        return site.page("play_odds.html", request, **context)

    return handler


def _attackers(site: Site, file: str, board: play.Board, game_id: str | None) -> list[play.Piece]:
    """The pieces that can attack: all of them, but those out of the game (the game asked for, or
    the list's latest), which the odds form does not offer."""
    from listbuilder.api import play  # games and the odds' stack: loaded by the first play page

    if not play.games_of(site.folder, file):
        return list(board.pieces)
    try:
        game = play.load_game(site.folder, file, site.catalogs, game_id or None, board=board)
    except ListbuilderError:  # a game that cannot be read: its page says why; every piece may attack
        return list(board.pieces)
    return [piece for piece in board.pieces if not game.is_out(piece)]


def _odds_context(site: Site, file: str, query: Mapping[str, str]) -> dict[str, Any]:
    from listbuilder.api import play  # games and the odds' stack: loaded by the first play page

    board = play.play_board(site.folder, file, site.catalogs)
    choices = play.odds_choices(site.folder, file, site.catalogs, board)
    # the opponents' lists first: the player's own list (it may be fought, as a mirror match) last
    opponents = sorted(choices.opponents, key=lambda opponent: opponent[0] == file)
    context: dict[str, Any] = {
        "title": f"{board.name}: odds",
        "board": board,
        "file": file,
        "base": play_url(file),
        "odds_choices": choices,
        "opponents": opponents,
        "attackers": _attackers(site, file, board, query.get("game")),
        "odds_form": dict(query),
        "odds": None,
        "odds_error": "",
        "odds_words": [],
        "game_id": query.get("game", ""),
    }
    against, _, target = (query.get("against") or "").rpartition("#")
    if not against:
        return context
    try:
        number = index(target)
        if number is None:
            raise InputError("choose the unit to attack", details=None)
        # the kind of attack, where the rule set has more than one (melee, shooting): its own options
        attack = (query.get("attack") or None) if len(choices.attacks) > 1 else None
        situation = _situation(query, choices.options_of(attack))
        context["odds"] = play.game_odds(
            site.folder, file, site.catalogs, query.get("attacker") or "", against, number, situation, attack
        )
        context["odds_words"] = _words(situation)
    except ListbuilderError as exc:
        context["odds_error"] = error_message(exc)
    return context

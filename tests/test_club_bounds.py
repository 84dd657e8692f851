"""Bounded work for whatever a club member uploads (issue 32): the list doctor refuses a list of
too many different entries before any work, and one member's heavy pages are limited."""

from __future__ import annotations

import asyncio
import time

import pytest

from listbuilder.api import doctor
from listbuilder.doctor import program
from listbuilder.errors import InputError
from listbuilder.web import security


def _custom(path, n: int):
    units = "".join(f"  - name: Guy {i}\n    class: warrior\n    might: {1 + i % 9}\n" for i in range(n))
    path.write_text(f"system: might-skirmish\nname: Host\npoints: 100\nunits:\n{units}", encoding="utf-8")
    return path


def test_fix_of_10000_different_entries_is_refused_at_once(tmp_path, catalogs):
    path = _custom(tmp_path / "big.yaml", 10_000)
    start = time.process_time()
    with pytest.raises(InputError, match="too large for an exact answer: 10,000 different units and statlines"):
        doctor.fix_list(path, catalogs)
    assert time.process_time() - start < 3.0  # was 8.6 s before the refusal (quadratic)


def test_the_bound_is_250_different_profiles_both_sides(tmp_path, catalogs):
    assert program.MAX_PROFILES == 250
    answer = doctor.fix_list(_custom(tmp_path / "at.yaml", 250), catalogs)
    assert answer.status == "fixed"
    with pytest.raises(InputError, match="251 different units"):
        doctor.fix_list(_custom(tmp_path / "over.yaml", 251), catalogs)
    # many entries of few profiles are one question of few variables: answered
    many = tmp_path / "many.yaml"
    many.write_text("system: might-skirmish\nname: M\npoints: 100\nunits:\n" + "  - unit: Hunter\n" * 10_000)
    assert doctor.fix_list(many, catalogs).status == "fixed"


def test_one_members_heavy_pages_are_limited():
    """At most HEAVY_PER_MEMBER (2) of one member's heavy pages run or wait; the third is 429,
    while another member's is still taken."""
    assert security.HEAVY_PER_MEMBER == 2
    release = asyncio.Event()

    async def slow(scope, receive, send):
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    current = {"who": ""}
    gets = security.HeavyGets(
        slow, [security.HeavyRoute("/heavy", slow)], token=lambda: "t", who=lambda: current["who"]
    )

    async def one(who: str) -> tuple[str, int]:
        sent = []

        async def send(message):
            if message["type"] == "http.response.start":
                sent.append(message["status"])

        scope = {"type": "http", "method": "GET", "path": "/heavy", "query_string": b"", "headers": []}
        await gets(scope, None, send)
        return who, sent[0]

    async def main() -> None:
        tasks = []
        for who in ("ana", "ana", "ana", "ben"):
            current["who"] = who
            tasks.append(asyncio.ensure_future(one(who)))
            await asyncio.sleep(0.01)  # each admitted (or refused) before the next is asked
        release.set()
        assert [await t for t in tasks] == [("ana", 200), ("ana", 200), ("ana", 429), ("ben", 200)]
        assert gets.members == {}  # every count given back

    asyncio.run(main())

"""Compiled templates are kept between runs, and only code this user wrote privately is ever run.

Each test builds fresh environments (as new processes would) over a cache folder of its own,
plants files as another user or a careless umask would, and checks what a render prints.
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest
from jinja2.bccache import Bucket

from listbuilder.printing import html
from listbuilder.printing.templatecache import FOLDER, template_cache

NAME = "print.css"


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LISTBUILDER_NO_CACHE", raising=False)
    return tmp_path / "cache" / FOLDER


def fresh() -> jinja2.Environment:
    return html.environment.__wrapped__(None)


def render(env: jinja2.Environment) -> str:
    return env.get_template(NAME).render(paper="A4")


def compiles(monkeypatch) -> list[str]:
    names: list[str] = []
    real = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return real(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


def plant(env: jinja2.Environment, text: str) -> tuple[str, bytes]:
    """A cache file for NAME holding the code of another template, with the real source's checksum."""
    source, filename, _ = env.loader.get_source(env, NAME)
    cache = env.bytecode_cache
    bucket = Bucket(env, cache.get_cache_key(NAME, filename), cache.get_source_checksum(source))
    bucket.code = env.compile(text, NAME, filename)
    return bucket.key + ".jinja", bucket.bytecode_to_string()


def test_a_new_process_runs_the_compiled_templates_instead_of_compiling(cache_root, monkeypatch):
    expected = render(fresh())
    assert cache_root.is_dir() and oct(cache_root.stat().st_mode & 0o777) == "0o700"
    (written,) = cache_root.glob("*.jinja")
    assert oct(written.stat().st_mode & 0o777) == "0o600"
    names = compiles(monkeypatch)
    assert render(fresh()) == expected and names == []


def test_the_cache_is_off_when_asked(cache_root, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_NO_CACHE", "1")
    assert template_cache(Path(html.__file__)) is None
    render(fresh())
    assert not cache_root.exists()


def test_a_planted_file_runs_only_when_private_and_ours(cache_root, tmp_path):
    expected = render(fresh())
    env = fresh()
    name, poisoned = plant(env, "POISONED")
    target = cache_root / name
    assert target.is_file()

    def planted(mode: int, owner: int | None = None) -> str:
        target.unlink(missing_ok=True)
        target.write_bytes(poisoned)
        target.chmod(mode)
        if owner is not None:
            os.chown(target, owner, -1)
        return render(fresh())

    # Control: a private file of ours is what the cache runs (so the refusals below mean something).
    assert planted(0o600) == "POISONED"
    assert planted(0o644) == expected  # others may read it
    assert planted(0o622) == expected  # others may write it
    if os.getuid() == 0:
        assert planted(0o600, owner=65534) == expected  # another user's file
    # A link to a private file of ours elsewhere is not followed.
    elsewhere = tmp_path / "elsewhere.jinja"
    elsewhere.write_bytes(poisoned)
    elsewhere.chmod(0o600)
    target.unlink()
    target.symlink_to(elsewhere)
    assert render(fresh()) == expected
    # A folder others can enter is not used at all, whatever its files.
    target.unlink()
    target.write_bytes(poisoned)
    target.chmod(0o600)
    cache_root.chmod(0o755)
    assert render(fresh()) == expected
    cache_root.chmod(0o700)
    assert render(fresh()) == "POISONED"


def test_a_damaged_file_is_compiled_afresh_and_replaced(cache_root, monkeypatch):
    expected = render(fresh())
    (written,) = cache_root.glob("*.jinja")
    good = written.read_bytes()
    written.write_bytes(good[:40] + b"\x00garbage" * 10)
    names = compiles(monkeypatch)
    assert render(fresh()) == expected and names == [NAME]
    assert written.read_bytes() == good


def test_a_changed_template_is_compiled_afresh(cache_root, tmp_path, monkeypatch):
    user = tmp_path / "mine"
    user.mkdir()
    (user / NAME).write_text("one {{ paper }}")
    assert html.environment.__wrapped__(user).get_template(NAME).render(paper="A4") == "one A4"
    (user / NAME).write_text("two {{ paper }}")
    names = compiles(monkeypatch)
    assert html.environment.__wrapped__(user).get_template(NAME).render(paper="A4") == "two A4"
    assert names == [NAME]


def test_the_sandbox_holds_for_cached_code(cache_root, tmp_path):
    user = tmp_path / "mine"
    user.mkdir()
    (user / NAME).write_text("{{ paper.__class__.__mro__ }}")
    for _ in range(2):  # compiled, then from the cache
        with pytest.raises(jinja2.exceptions.SecurityError):
            html.environment.__wrapped__(user).get_template(NAME).render(paper="A4")
    assert list(cache_root.glob("*.jinja"))


def test_the_budget_s_code_is_part_of_the_key_of_a_users_folder(cache_root, tmp_path, monkeypatch):
    # The sandbox's budget compiles into a user's templates (the '*', '**' and '%' it checks and
    # each loop's clock are compiled as calls): cached code from before a change to budget.py
    # must not be run after it. The built-in templates alone are compiled without it.
    from listbuilder.printing import budget

    user = tmp_path / "mine"
    user.mkdir()
    keys = fresh().bytecode_cache.configuration, html.environment.__wrapped__(user).bytecode_cache.configuration
    real = Path.read_bytes
    monkeypatch.setattr(
        Path, "read_bytes", lambda self: real(self) + b"# changed" if self == Path(budget.__file__) else real(self)
    )
    assert html.environment.__wrapped__(user).bytecode_cache.configuration != keys[1]
    assert fresh().bytecode_cache.configuration == keys[0]


def test_the_built_in_templates_alone_and_within_a_budget_never_share_compiled_code(cache_root, tmp_path):
    # The same built-in file compiles to different code in the two environments: each must find
    # only its own in the cache (the budgeted code calls what a plain environment lacks).
    user = tmp_path / "mine"
    user.mkdir()
    trusted, budgeted = fresh(), html.environment.__wrapped__(user)
    assert type(trusted) is jinja2.Environment and type(budgeted).__name__ == "BudgetedEnvironment"
    _source, filename, _ = trusted.loader.get_source(trusted, NAME)
    assert budgeted.loader.get_source(budgeted, NAME)[1] == filename  # the same file, found by both
    keys = {env.bytecode_cache.get_cache_key(NAME, filename) for env in (trusted, budgeted)}
    assert len(keys) == 2
    for _ in range(2):  # compiled, then each from its own cache file
        assert render(fresh()) == render(html.environment.__wrapped__(user))
    assert len(list(cache_root.glob("*.jinja"))) == 2

"""What listbuilder promises on Windows too, each test run on Linux as it is and again
with LISTBUILDER_SIMULATE=windows (``.ci/run``; tests/simulated_windows): no ``fcntl``,
``O_NOFOLLOW``, ``O_DIRECTORY``, user ids or ``dir_fd``, ``\\`` between a path's parts, ``;``
between paths, list files written with CRLF.

Where a check leans on a POSIX call, its counterpart keeps the same promise without it (a link
out of the folder is refused by real paths; a cache folder that is not the user's own is not
read), or the feature is off (the template cache), never a check that silently passes.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES, SIMULATING

from listbuilder.api import folders, lists, printing
from listbuilder.errors import InputError
from listbuilder.files.private import own_profile_folder
from listbuilder.printing import html, templatecache
from listbuilder.rules import cache
from listbuilder.rules.catalog import Catalogs

pytestmark = pytest.mark.platform
ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
SEP = "\\" if SIMULATING else os.sep  # what listbuilder's messages put between a path's parts
PATHSEP = ";" if SIMULATING else os.pathsep  # and between paths in LISTBUILDER_CATALOGS


def shown(path: Path | str) -> str:
    return str(path).replace("/", SEP)


def without_user_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' os, for the checks that depend on it (already so when simulating)."""
    for name in ("geteuid", "getuid", "O_NOFOLLOW", "O_DIRECTORY"):
        monkeypatch.delattr(os, name, raising=False)


# --- the rule-set cache: trusted only in a folder of the user's own ----------------------------


@pytest.fixture
def shipped_copy(tmp_path: Path) -> Path:
    root = tmp_path / "shipped"
    shutil.copytree(CATALOGS / "might-skirmish", root / "might-skirmish")
    return root


@pytest.fixture
def profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user profile (home) of its own for the test, with the cache folder inside it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.delenv("LISTBUILDER_NO_CACHE", raising=False)
    cache.clear()
    yield home
    cache.clear()


def _load_twice(root: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Load the rule set, forget it, load it again: how many times it was built from its files."""
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(folder))
    built: list[int] = []
    real = Catalogs._load
    monkeypatch.setattr(Catalogs, "_load", lambda self, *a: built.append(1) or real(self, *a))
    first = Catalogs(shipped=root).get("might-skirmish")
    cache.clear()
    assert Catalogs(shipped=root).get("might-skirmish") == first
    cache.clear()
    return built


def test_without_user_ids_a_cache_in_the_users_profile_is_used(shipped_copy, profile, monkeypatch):
    without_user_ids(monkeypatch)
    folder = profile / "AppData" / "Local" / "listbuilder"
    assert _load_twice(shipped_copy, folder, monkeypatch) == [1]
    assert len(list(folder.glob("ruleset-*.json"))) == 1


def test_without_user_ids_a_cache_outside_the_profile_is_not_trusted(shipped_copy, profile, tmp_path, monkeypatch):
    # mode bits say nothing of other users there: a folder anybody may write is never read
    without_user_ids(monkeypatch)
    shared = tmp_path / "shared" / "listbuilder"
    assert _load_twice(shipped_copy, shared, monkeypatch) == [1, 1]
    assert not list(shared.glob("ruleset-*.json"))
    assert not own_profile_folder(shared) and not own_profile_folder(profile)


def test_without_user_ids_a_link_on_the_way_to_the_cache_is_not_trusted(shipped_copy, profile, tmp_path, monkeypatch):
    without_user_ids(monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (profile / "cache").symlink_to(elsewhere, target_is_directory=True)  # as a junction would
    assert _load_twice(shipped_copy, profile / "cache" / "listbuilder", monkeypatch) == [1, 1]
    assert not list(elsewhere.rglob("ruleset-*.json"))


def test_without_o_nofollow_a_linked_cache_file_is_ignored(shipped_copy, profile, tmp_path, monkeypatch):
    without_user_ids(monkeypatch)
    folder = profile / "listbuilder"
    assert _load_twice(shipped_copy, folder, monkeypatch) == [1]
    (entry,) = folder.glob("ruleset-*.json")
    planted = tmp_path / "planted.json"
    entry.rename(planted)
    entry.symlink_to(planted)
    built = _load_twice(shipped_copy, folder, monkeypatch)
    assert built == [1]  # read afresh once, then from the real file written over the link
    assert not entry.is_symlink()


def test_on_posix_the_cache_is_still_held_to_owner_and_mode(shipped_copy, tmp_path, monkeypatch):
    if not hasattr(os, "geteuid") or SIMULATING:
        pytest.skip("user ids are POSIX's")
    monkeypatch.delenv("LISTBUILDER_NO_CACHE", raising=False)
    cache.clear()
    folder = tmp_path / "anywhere"
    assert own_profile_folder(folder)  # each file is judged by owner and mode instead
    assert _load_twice(shipped_copy, folder, monkeypatch) == [1]


# --- the template cache: off where its checks cannot be made ------------------------------------


def test_the_template_cache_is_off_without_its_calls_and_printing_works(tmp_path, monkeypatch):
    # A Windows process builds its template environments without those calls from its start: an
    # environment this worker built earlier (with its cache) is not one Windows would ever have.
    html.environment.cache_clear()
    without_user_ids(monkeypatch)
    assert not templatecache.supported()
    assert templatecache.template_cache() is None
    report = lists.check_list(ZOMBIES, Catalogs())
    try:
        page = printing.render_reports([report], format="html").data.decode()
    finally:
        html.environment.cache_clear()  # the next test's environments are built with the calls again
    assert "Zombie Family" in page


# --- a list path never leads out of the folder --------------------------------------------------


def test_a_link_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    outside = tmp_path / "secret.yaml"
    outside.write_bytes(ZOMBIES.read_bytes())
    (folder / "zombies.yaml").symlink_to(outside)
    (folder / "elsewhere").symlink_to(tmp_path, target_is_directory=True)  # as a junction would
    for name in ("zombies.yaml", "elsewhere/secret.yaml", "../secret.yaml"):
        with pytest.raises(InputError, match="is not a list file of this folder"):
            folders.list_file(folder, name)
    assert [s.file for s in folders.folder_lists(folder, Catalogs())] == []


# --- CRLF list files, paths in messages, drive letters -----------------------------------------


def test_a_crlf_list_validates_and_an_edit_keeps_its_line_endings(cli, tmp_path):
    path = tmp_path / "crlf.yaml"
    path.write_bytes(ZOMBIES.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    result = cli("validate", path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"{shown(path)}: legal: Zombie Family")
    assert cli("add", path, "Shambler").exit_code == 0
    data = path.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") and b"Shambler" in data


def test_a_crlf_lists_errors_name_their_lines(cli, write_list):
    path = write_list("system: might-skirmish\nname: Odd\npoints: 100\nunits:\n  - unit: Hunter\n    count: lots\n")
    if SIMULATING:
        assert b"\r\n" in path.read_bytes()
    result = cli("validate", path)
    assert result.exit_code == 2
    assert shown(path) in result.stderr and "line 6" in result.stderr


def test_messages_show_paths_with_the_systems_separator(cli, tmp_path):
    missing = tmp_path / "club" / "lists" / "none.yaml"
    result = cli("validate", missing)
    assert result.exit_code == 2
    assert f"{shown(missing)}: no such list file" in result.stderr
    out = tmp_path / "zombies.html"
    result = cli("render", ZOMBIES, "-o", out)
    assert result.exit_code == 0 and f"wrote {shown(out)}" in result.stdout


def test_a_drive_letter_catalog_folder_that_is_not_there_is_named(cli):
    drive = r"C:\Users\Player\Documents\rules"
    result = cli("validate", "--catalogs", drive, ZOMBIES)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert f"{shown(drive)}: no such catalog folder" in result.stderr


def test_listbuilder_catalogs_is_split_between_paths_not_at_drive_letters(tmp_path):
    from listbuilder.rules.catalog import user_roots

    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    assert user_roots(environ={"LISTBUILDER_CATALOGS": f"{first}{PATHSEP}{second}"}) == [first, second]
    if SIMULATING:  # 'C:\rules' is one folder, not 'C' and '\rules'
        with pytest.raises(InputError) as caught:
            user_roots(environ={"LISTBUILDER_CATALOGS": r"C:\rules"})
        assert caught.value.file == Path(r"C:\rules")


def test_the_simulation_is_what_it_says(tmp_path):
    """Simulating, listbuilder itself (here and in a command it starts) sees Windows' os."""
    import subprocess
    import sys

    from listbuilder.editing import lock as locking

    probe = "import listbuilder.rules.cache as c; print(hasattr(c.os, 'geteuid'), c.os.sep, c.os.pathsep)"
    child = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    if not SIMULATING:
        assert child.stdout.split() == ["True", os.sep, os.pathsep]
        return
    assert child.stdout.split() == ["False", "\\", ";"]
    assert not hasattr(cache.os, "geteuid") and not hasattr(cache.os, "O_NOFOLLOW")
    assert cache.os.supports_dir_fd == frozenset() and cache.os.name == "nt"
    assert type(locking._backend()).__name__ == "_Msvcrt"  # the edit lock takes msvcrt
    with pytest.raises(ModuleNotFoundError):
        exec("import fcntl", vars(cache))
    assert hasattr(os, "geteuid")  # the test's own os, and pytest's, are Linux's


# --- printing where Pango is missing (on Windows and macOS it is installed apart) ---------------

NO_PANGO = "cannot load library 'libgobject-2.0-0': error 0x7e"


class _NoPango:
    """A finder that fails to import WeasyPrint as it fails where Pango is not installed."""

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name == "weasyprint":
            raise OSError(NO_PANGO)


@pytest.mark.parametrize(
    ("platform", "words"),
    [
        ("win32", "'pacman -S mingw-w64-x86_64-pango', then set WEASYPRINT_DLL_DIRECTORIES"),
        ("darwin", "'brew install pango'"),
        ("linux", "apt-get install libpango-1.0-0"),
    ],
)
def test_without_pango_a_pdf_is_refused_saying_how_to_install_it(monkeypatch, platform, words):
    import sys

    from listbuilder.errors import OutputError
    from listbuilder.printing import engine

    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_NoPango(), *sys.meta_path])
    monkeypatch.setattr(sys, "platform", platform)
    with pytest.raises(OutputError) as caught:
        engine._import_or_say_how()
    text = caught.value.render()
    assert text.startswith(
        "PDFs cannot be made here: the Pango library that WeasyPrint lays them out with did not load"
    )
    assert NO_PANGO in text and words in text
    assert caught.value.exit_code == 3


def test_without_pango_render_exits_3_with_no_traceback_and_html_still_prints(tmp_path):
    import subprocess
    import sys

    script = (
        "import sys\n"
        f"class NoPango:\n    def find_spec(self, name, path, target=None):\n"
        f"        if name == 'weasyprint': raise OSError({NO_PANGO!r})\n"
        "sys.meta_path.insert(0, NoPango())\n"
        "from listbuilder.cli import app\n"
        "app(sys.argv[1:], prog_name='listbuilder')\n"
    )
    pdf, html = tmp_path / "roster.pdf", tmp_path / "roster.html"
    done = subprocess.run(
        [sys.executable, "-c", script, "render", str(ZOMBIES), "-o", str(pdf)], capture_output=True, text=True
    )
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "the Pango library" in done.stderr
    assert not pdf.exists()
    done = subprocess.run(
        [sys.executable, "-c", script, "render", str(ZOMBIES), "-o", str(html)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "Zombie Family" in html.read_text(encoding="utf-8")

"""The lists page's summaries: a folder listed again judges only the lists whose text changed,
however many lists it holds."""

from __future__ import annotations

from pathlib import Path

from conftest import EXAMPLES

from listbuilder.editing import state
from listbuilder.rules.catalog import Catalogs

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


def test_a_folder_listed_again_judges_only_the_lists_that_changed(tmp_path: Path, monkeypatch):
    for i in range(1030):  # more than a bound of 1,024 held across folders would keep
        (tmp_path / f"list-{i:04d}.yaml").write_bytes(ZOMBIES.read_bytes())
    catalogs = Catalogs()
    judged: list[str] = []
    parse = state.parse_list
    monkeypatch.setattr(state, "parse_list", lambda doc, books: judged.append(str(doc.path)) or parse(doc, books))
    first = state.folder_summaries(tmp_path, catalogs)
    assert len(first) == 1030 and len(judged) == 1030
    judged.clear()
    changed = tmp_path / "list-0007.yaml"
    changed.write_text(changed.read_text(encoding="utf-8").replace("name: Zombie Family", "name: Changed"))
    (tmp_path / "list-0008.yaml").unlink()
    again = state.folder_summaries(tmp_path, catalogs)
    assert judged == [str(changed)]  # the other 1,028 were not read into lists again
    assert [s.name for s in again if s.file == "list-0007.yaml"] == ["Changed"]
    assert len(again) == 1029 and again[0] == first[0]
    judged.clear()
    state.folder_summaries(tmp_path, Catalogs())  # other catalogs judge every list anew
    assert len(judged) == 1029

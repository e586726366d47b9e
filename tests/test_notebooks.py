"""The research notebooks in notebooks/ run top to bottom with a small game count.

Each notebook is copied to a temporary directory and executed there with nbclient and the
``python3`` kernel of this interpreter (ipykernel, from the ``dev`` extra), with
``MJSIM_NOTEBOOK_GAMES=600`` and its runs written to the temporary directory: the committed
notebooks, which carry the outputs of a real-size run, are never rewritten.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
GAMES = 600
CHECK_INTERPRETER = "import sys\nprint('KERNEL-PREFIX', sys.prefix)"
# Outputs each notebook must show (in its HTML tables), besides figures and no errors.
EXPECTED_HTML = {
    "01-quick-start.ipynb": [
        "平胡",
        "硬庄",
        "share_of_wins",
        "self_draw",
        "non_dealer",
        "pattern:硬庄",
    ],
    "02-anhua-balancing.ipynb": [
        "平胡",
        "硬庄",
        "小七对",
        "大胡",
        "P(Δ ≤ −32)",
        "bird share",
        "loss_32",
        "four_kings − default",
        "birds_4 − default",
        "four_kings_wdy_on − four_kings",
    ],
    "03-wengan-balancing.ipynb": [
        "std of score",
        "mean |chicken net|",
        "chicken share",
        "wu_gu_ji − default",
        "chong_feng_4321 − default",
        "chong_feng_mode = 4321",
        "chicken_abs",
        "std change %",
    ],
}
EXPECTED_RUNS = {
    "01-quick-start.ipynb": ["anhua-seven-kings", "anhua-four-kings"],
    "02-anhua-balancing.ipynb": [
        "default",
        "four_kings",
        "birds_1",
        "birds_4",
        "wdy_on",
        "four_kings_wdy_on",
    ],
    "03-wengan-balancing.ipynb": [
        "default",
        "wu_gu_ji",
        "chong_feng_4321",
        "no_fan_pai_ji",
        "xing_qi_ji",
        "sweep/cells/ben_ji-jin_ji-no_wu_gu_ji-plain",  # a cell of the 32-cell sweep
    ],
}
NOTEBOOK_NAMES = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
NOTEBOOK_RUNS = [
    name if name.startswith("01-") else pytest.param(name, marks=pytest.mark.slow)
    for name in NOTEBOOK_NAMES
]
"""The quick run (``-m "not slow"``) runs the quick start; the full suite runs every notebook."""


def _outputs(notebook, kind: str | None = None):
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if kind is None or output.output_type == kind:
                yield output


def _stream_text(notebook) -> str:
    return "".join(str(output.get("text", "")) for output in _outputs(notebook, "stream"))


def _html(notebook) -> str:
    return "\n".join(
        output["data"]["text/html"]
        for output in _outputs(notebook)
        if "text/html" in output.get("data", {})
    )


def test_notebooks_are_numbered_and_committed_with_outputs():
    assert NOTEBOOK_NAMES, "no notebooks"
    assert sorted(EXPECTED_HTML) == NOTEBOOK_NAMES, "list each notebook's key outputs here"
    for name in NOTEBOOK_NAMES:
        assert re.fullmatch(r"\d\d-[a-z0-9-]+\.ipynb", name), name
        notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(notebook)
        assert notebook.metadata["kernelspec"]["name"] == "python3"
        first_code = next(cell for cell in notebook.cells if cell.cell_type == "code")
        assert "MJSIM_NOTEBOOK_GAMES" in first_code.source, "the parameter belongs in cell 1"
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        assert all(cell.get("execution_count") for cell in code), f"{name}: not run through"
        assert not list(_outputs(notebook, "error")), f"{name} was committed with an error"
        assert any("image/png" in o.get("data", {}) for o in _outputs(notebook)), name
        assert (NOTEBOOKS / name).stat().st_size < 1_500_000, f"{name} is over 1.5 MB"


@pytest.mark.engine
@pytest.mark.parametrize("name", NOTEBOOK_RUNS)
def test_notebook_runs_top_to_bottom(name, tmp_path, monkeypatch):
    copy = tmp_path / name
    shutil.copy(NOTEBOOKS / name, copy)
    runs = tmp_path / "runs"
    monkeypatch.setenv("MJSIM_NOTEBOOK_GAMES", str(GAMES))
    monkeypatch.setenv("MJSIM_NOTEBOOK_RUNS", str(runs))
    monkeypatch.setenv("MJSIM_NOTEBOOK_JOBS", "1")
    notebook = nbformat.read(copy, as_version=4)
    for cell in notebook.cells:  # start from a clean slate: no committed outputs
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.cells.insert(0, nbformat.v4.new_code_cell(CHECK_INTERPRETER))
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=900,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, if one fails
    nbformat.write(notebook, copy)  # the executed copy, for a look after a failure

    prefix = _stream_text(nbformat.v4.new_notebook(cells=notebook.cells[:1]))
    assert prefix.split("KERNEL-PREFIX", 1)[1].strip() == sys.prefix, (
        f"the kernel ran another Python ({prefix.strip()}), not {sys.prefix}"
    )
    errors = list(_outputs(notebook, "error"))
    assert not errors, [f"{error.ename}: {error.evalue}" for error in errors]
    assert all(cell.get("execution_count") for cell in notebook.cells if cell.cell_type == "code")
    figures = [o for o in _outputs(notebook) if "image/png" in o.get("data", {})]
    assert len(figures) >= 3, "expected figures (image/png outputs)"
    assert f"{GAMES:,} hands per run" in _stream_text(notebook), "MJSIM_NOTEBOOK_GAMES not read"
    html = _html(notebook)
    missing = [text for text in EXPECTED_HTML[name] if text not in html]
    assert not missing, f"tables without {missing}"
    for run in EXPECTED_RUNS[name]:  # runs went to the temporary directory
        assert (runs / run / "manifest.json").exists(), run
    if name == "02-anhua-balancing.ipynb":
        assert "bird runs have exactly the default's patterns: True" in _stream_text(notebook)
    if name == "03-wengan-balancing.ipynb":  # chicken options change the payments only
        assert "every run plays the default's hands: True" in _stream_text(notebook)

"""The example notebook runs, and its cells show positions as drawings."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).parent.parent / "examples" / "notebook.ipynb"


def test_the_notebook_runs_and_shows_svg_tables() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    if not NOTEBOOK.exists():
        pytest.skip("no examples folder (testing an installed package)")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    pictures = [
        output["data"]["image/svg+xml"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "image/svg+xml" in output.get("data", {})
    ]
    # The card, the meld, the state, the view, the Japanese view, the last table.
    assert len(pictures) == 6
    assert "7 of hearts" in pictures[0]
    assert "joker as 6 of spades" in pictures[1]
    assert "face down" not in pictures[2] and "face down" in pictures[3]
    assert "山札" in pictures[4] and "Aki" in pictures[4]
    assert "deal over" in pictures[5]
    assert not any(
        o.get("output_type") == "error" for c in notebook.cells for o in c.get("outputs", [])
    )

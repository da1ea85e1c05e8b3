"""examples/notebook.ipynb runs from top to bottom and draws its three
figures: through nbclient where Jupyter's kernel is installed, else as a
script of its code cells.  Skipped without matplotlib and pandas."""
import json
import os

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("pandas")

SRCDIR = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(SRCDIR, "examples")
NOTEBOOK = os.path.join(EXAMPLES, "notebook.ipynb")


def _kernel():
    try:
        import nbclient  # noqa: F401
        import nbformat  # noqa: F401
        from jupyter_client.kernelspec import KernelSpecManager
        return "python3" in KernelSpecManager().find_kernel_specs()
    except Exception:  # no Jupyter, or a broken one: the script
        return False


def test_notebook_runs_and_draws(monkeypatch):
    if _kernel():
        # the kernel's inline backend, which shows each cell's figures
        monkeypatch.delenv("MPLBACKEND", raising=False)
        import nbclient
        import nbformat
        nb = nbformat.read(NOTEBOOK, as_version=4)
        nbclient.NotebookClient(nb, timeout=600, resources={"metadata": {"path": EXAMPLES}}).execute()
        images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                  if "image/png" in o.get("data", {})]
        assert len(images) == 3
        return
    monkeypatch.setenv("MPLBACKEND", "Agg")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.close("all")
    with open(NOTEBOOK, encoding="utf-8") as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    monkeypatch.chdir(EXAMPLES)
    scope = {"__name__": "notebook"}
    for c in cells:
        exec(compile("".join(c["source"]), NOTEBOOK, "exec"), scope)
    assert len(plt.get_fignums()) == 3
    assert {"price", "delta", "vega"} <= set(scope["long"]["measure"])
    assert scope["wide"].index[-1] == "TOTAL"
    plt.close("all")

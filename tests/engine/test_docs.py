"""The example in docs/engine.md runs as written (the README folds it in)."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_engine_doc_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    exec(compile(code, str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "above_maximum R5.2 {'amount': 100, 'minimum': 40, 'maximum': 70}" in out

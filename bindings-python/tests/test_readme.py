"""The README's Python blocks work as written: every ```python block of its "### Python:
templates and the raw machines" section runs, and every standalone `# output` comment line
appears in what it prints. (The quickstart above it, examples/quickstart/, runs in
scripts/install-test.sh from the wheel, with the official SDK client.)"""

import contextlib
import io
import re

from conftest import REPO


def python_blocks():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n### Python: templates and the raw machines\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_quickstart_blocks_run_and_print_what_they_say():
    blocks = python_blocks()
    assert len(blocks) >= 2
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), {})
        printed = out.getvalue()
        for line in block.splitlines():
            if line.startswith("# "):
                assert line[2:] in printed, (line, printed)


def test_package_quickstart_runs_as_written():
    """bindings-python/README.md's quickstart (a server on App, a client on aio.Client)."""
    from quickstart import run

    printed = run(REPO / "bindings-python" / "README.md")
    assert "Hello, ada" in printed

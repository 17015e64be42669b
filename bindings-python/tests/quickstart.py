"""Runs the quickstart of bindings-python/README.md as written: each ```python block of its
"## Quickstart" section whose first line is ``# FILE.py`` is written to FILE.py in a fresh
directory; the last block runs there, and every standalone ``# output`` line after its code
must appear in what it prints. Used by test_readme.py and by test.sh against the wheel:

    python quickstart.py README.md
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path


def blocks(readme: Path) -> list[str]:
    text = readme.read_text(encoding="utf-8")
    section = text.split("\n## Quickstart\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def run(readme: Path, python: str = sys.executable) -> str:
    found = blocks(readme)
    assert len(found) >= 2, "the quickstart has a server and a client block"
    with tempfile.TemporaryDirectory() as tmp:
        for block in found[:-1]:
            name = block.splitlines()[0].removeprefix("# ").strip()
            assert name.endswith(".py"), name
            (Path(tmp) / name).write_text(block, encoding="utf-8")
        main = found[-1]
        out = subprocess.run([python, "-c", main], cwd=tmp, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        code_done = False
        for line in main.splitlines():
            if line.startswith("# ") and code_done:
                assert line[2:] in out.stdout, (line, out.stdout)
            elif line and not line.startswith("#"):
                code_done = True
        return out.stdout


if __name__ == "__main__":
    print(run(Path(sys.argv[1])), end="")

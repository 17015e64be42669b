"""The knowledge-base server stays small: at most 45 non-blank, non-comment lines (module
docstring excluded, data in kb_data.py), against the same server on the official SDK
(tests/sdk_kb_server.py, counted the same way). ``python test_kb_lines.py`` prints both."""

import ast
import sys
from pathlib import Path

from conftest import EXAMPLES

SDK = Path(__file__).resolve().parent / "sdk_kb_server.py"


def code_lines(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    skip: set[int] = set()
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        skip.update(range(first.lineno, first.end_lineno + 1))
    return sum(
        1
        for i, line in enumerate(text.splitlines(), 1)
        if i not in skip and line.strip() and not line.strip().startswith("#")
    )


def test_kb_server_fits_in_45_lines():
    assert code_lines(EXAMPLES / "kb_server.py") <= 45


if __name__ == "__main__":
    print(f"mcp_context App: {code_lines(EXAMPLES / 'kb_server.py')} lines; official SDK MCPServer: {code_lines(SDK)} lines", file=sys.stdout)

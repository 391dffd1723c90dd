"""The first-rule examples of the README and the landing page, and what
their comments promise: each line that prints (Python's `print(...)`, R's
top-level `as.numeric(...)`) ends with a comment whose first word is the
value it prints (`# 1.0`, `# NaN`). Shared by tests/test_docs_claims.py
(run against this tree) and tests/test_dist.py (against the packages
`make dist` builds)."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def blocks(path, language):
    """The ```language blocks of a Markdown file, in order."""
    text = (ROOT / path).read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def first_rule(path, language):
    """The first block of `language` that writes a custom gradient."""
    return next(b for b in blocks(path, language) if "custom_gradient" in b)


def promised(code, language):
    """What each printing line's comment says it prints, in order, as the
    line of output it means (R's `[1] ` prefix added)."""
    prints = r"^print\(.*#\s*(\S+)" if language == "python" else \
        r"^as\.numeric\(.*#\s*(\S+)"
    values = re.findall(prints, code, re.M)
    return values if language == "python" else [f"[1] {v}" for v in values]


def printed(stdout):
    """The lines a run printed, without blank ones."""
    return [line.strip() for line in stdout.splitlines() if line.strip()]

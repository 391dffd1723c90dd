"""Tables in docstrings. pycg's docstrings write their tables as reST
simple tables (`help()` shows them as they are written); pdoc's Markdown
would run them into one paragraph of `=====` rows, so the site's pdoc
template (tools/site/pdoc/) turns each into a Markdown table first, which
pdoc renders as <table>. `count` is what tests/test_site.py checks the
built pages against: every table of every docstring comes out a table.

A simple table: a border of `=` runs parted by spaces, the header row(s),
a second border, the body rows, a last border. A row whose first column is
blank continues the row above (reST's rule), so a cell's lines join into
one; in a table with blank lines between its rows, each row's lines join
(a first column that wraps, as the tables of pycg.custom_gradient's
docstring have). Markdown tables (a `|---|` rule under a header) pass through."""
import re

BORDER = re.compile(r"^( *)(=+(?: +=+)+) *$")
MD_RULE = re.compile(r"^ *\|? *:?-{3,}:? *(\| *:?-{3,}:? *)+\|? *$")


def _columns(border):
    return [(m.start(), m.end()) for m in re.finditer(r"=+", border)]


def _cells(line, columns):
    cells = []
    for i, (start, _) in enumerate(columns):
        stop = columns[i + 1][0] if i + 1 < len(columns) else len(line)
        cells.append(line[start:stop].strip())
    return cells


def _join(a, b):
    """A cell's lines as one: a word hyphenated at a line's end joins the
    next line's first without a space (keyword-/only: keyword-only)."""
    if re.search(r"[A-Za-z]-$", a) and b[:1].isalpha():
        return a + b
    return f"{a} {b}".strip()


def _rows(lines, columns):
    """A block's rows. With a blank line in it, blank lines part the rows
    (each row's lines join, cell by cell); without, reST's rule."""
    loose = any(not line.strip() for line in lines)
    rows, new = [], True
    for line in lines:
        if not line.strip():
            new = True
            continue
        cells = _cells(line, columns)
        joins = not new if loose else not cells[0]
        if rows and joins:
            rows[-1] = [_join(a, b) for a, b in zip(rows[-1], cells)]
        else:
            rows.append(cells)
        new = False
    return rows


def _markdown(indent, header, body):
    def row(cells):
        return indent + "| " + " | ".join(
            c.replace("|", "\\|") for c in cells) + " |"
    head = [" ".join(c for c in col if c) for col in zip(*header)] \
        if header else [""] * len(body[0])
    return ([row(head), indent + "|" + "---|" * len(head)]
            + [row(r) for r in body])


def _simple_tables(lines):
    """[(first line, last line, indent, columns)] of each simple table."""
    found, i = [], 0
    while i < len(lines):
        m = BORDER.match(lines[i])
        if not m:
            i += 1
            continue
        ends = [j for j in range(i + 1, len(lines))
                if lines[j].strip() == lines[i].strip()]
        if len(ends) < 2 or any(BORDER.match(lines[j]) and
                                lines[j].strip() != lines[i].strip()
                                for j in range(i + 1, ends[1])):
            i += 1
            continue
        found.append((i, ends[0], ends[1], m[1], _columns(lines[i])))
        i = ends[1] + 1
    return found


def to_markdown(text):
    """`text` with each reST simple table as a Markdown table."""
    lines = text.split("\n")
    for top, mid, end, indent, columns in reversed(_simple_tables(lines)):
        cols = [(s - len(indent), e - len(indent)) for s, e in columns]
        strip = [line[len(indent):] for line in lines[top:end + 1]]
        header = _rows(strip[1:mid - top], cols)
        body = _rows(strip[mid - top + 1:end - top], cols)
        lines[top:end + 1] = [""] + _markdown(indent, header, body) + [""]
    return "\n".join(lines)


def count(text):
    """The number of tables (reST simple or Markdown) in `text`."""
    lines = (text or "").split("\n")
    return len(_simple_tables(lines)) + sum(
        1 for line in lines if MD_RULE.match(line))

"""Every file pycg writes is written whole or not at all: each call in
pycg/ (Python) and R/ (the R package) that can create, write or replace a
file is listed here with the way it is made safe, so a new writer fails
this test until it goes through pycg/saving/files.py's replace_atomically (Python)
or write_atomically() of R/install.R (R), both pinned by fault tests
(tests/test_saving_faults.py, tests/testthat/test-saving.R)."""
import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (file, call) -> why it is safe
PYTHON_WRITERS = {
    ("pycg/saving/files.py", "os.open"):
        "replace_atomically's temporary file (O_EXCL, a new name), and the "
        "read-only opens of open_regular and _sync_folder",
    ("pycg/saving/files.py", "os.fdopen"): "the temporary file and the read",
    ("pycg/saving/files.py", "os.replace"): "the atomic rename itself",
    ("pycg/saving/files.py", "os.chmod"): "the temporary file, before the rename",
    ("pycg/saving/files.py", "os.unlink"): "the temporary file, after a failure",
    ("pycg/backends/_tf_import.py", "tempfile.TemporaryFile"):
        "an anonymous file with no name in any folder (TensorFlow's start-up "
        "logs): nothing of the user's can be replaced",
}
WRITE_MODES = re.compile(r"[wax+]")
CALLS = {"open", "os.open", "os.fdopen", "io.open", "os.replace",
         "os.rename", "os.chmod", "os.unlink", "os.remove", "np.save",
         "np.savez", "np.savez_compressed", "numpy.save", "shutil.copy",
         "shutil.copyfile", "shutil.copy2", "shutil.move",
         "tempfile.TemporaryFile", "tempfile.NamedTemporaryFile",
         "tempfile.mkstemp", "tempfile.mkdtemp"}
METHODS = {"tofile", "write_text", "write_bytes", "savez", "savetxt"}


def _name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        base = _name(func.value)
        return f"{base}.{func.attr}" if base else None
    return None


def python_writers():
    found = set()
    for path in sorted((ROOT / "pycg").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            if name == "open" and len(node.args) > 1 and isinstance(
                    node.args[1], ast.Constant) and \
                    not WRITE_MODES.search(str(node.args[1].value)):
                continue   # (opened for reading)
            if name == "open" and len(node.args) == 1 and not node.keywords:
                continue
            if name in CALLS or (isinstance(node.func, ast.Attribute) and
                                 node.func.attr in METHODS):
                found.add((rel, name or node.func.attr))
    return found


def test_every_python_writer_is_one_made_safe():
    assert python_writers() == set(PYTHON_WRITERS)


# R: a call that writes a file, and the lines that may make it (file ->
# the exact calls, each writing to `to`, write_atomically()'s temporary)
R_WRITERS = re.compile(
    r"\b(writeLines|saveRDS|save|write\.dcf|write\.csv|write\.table|dput|"
    r"sink|file\.create|file\.copy|file\.rename|file\.append|download\.file|"
    r"writeBin|writeChar)\s*\(|\bcat\s*\(.*\bfile\s*=")
R_ALLOWED = {
    ("R/install.R", "write.dcf(data.frame(envname = envname, python = "
                    "python), to,"),
    ("R/install.R", "renamed <- tryCatch(file.rename(to, file), warning = "
                    "function(w)"),
    # to raw vectors in memory, not files
    ("R/convert.R", 'return(list(writeBin(as.vector(x), raw(), endian = '
                    '"little"), shape,'),
    ("R/convert.R", 'list(writeBin(as.integer(x), raw(), size = 4L, endian '
                    '= "little"), shape,'),
    ("R/tensor-na.R", 'stats::setNames(list(writeBin(as.vector(x), raw(), '
                      'size = 4L,'),
}


def r_writers():
    found = set()
    for path in sorted((ROOT / "R").glob("*.R")):
        rel = str(path.relative_to(ROOT))
        for line in path.read_text().splitlines():
            code = line.split("#", 1)[0].strip()
            if R_WRITERS.search(code) and not code.startswith(("stop(",
                                                                "\"")):
                found.add((rel, code))
    return found


def test_every_r_writer_is_one_made_safe():
    found = r_writers()
    assert found == R_ALLOWED, (
        "a new R call that may write a file: write it through "
        "write_atomically(file, function(to) ...) in R/install.R, then list "
        f"it here: {sorted(found - R_ALLOWED)}; gone: "
        f"{sorted(R_ALLOWED - found)}")


def test_the_scan_finds_a_plain_write():
    tree = ast.parse('open(path, "wb").write(data)\nnp.savez(f, **a)')
    names = {_name(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert {"open", "np.savez"} <= names
    assert R_WRITERS.search('writeLines(text, path)')
    assert R_WRITERS.search('saveRDS(x, file)')
    assert R_WRITERS.search('cat(x, file = path)')
    assert not R_WRITERS.search('cat("<tuple>\\n")')

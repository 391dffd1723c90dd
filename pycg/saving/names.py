"""The names of variables as .npz member names, checked before anything is
written: a name the zip file would change or cannot hold is refused by
name, so a refused save leaves the previous file as it was.

zipfile cuts a member name at a NUL character (two variables `w\\x00a` and
`w\\x00b` would both be written as `w`), reads a backslash as `/` where
`os.sep` is one (Windows), cannot encode a lone surrogate (a name that
`os.fsdecode` made from bytes that are not UTF-8) and cannot store a name
of more than 65,535 bytes. A `/` separates the parts of a name as in
TensorFlow's (`dense/kernel`), but a part must not be empty, `.` or `..`
(a zip reader extracting the file would write outside its folder).
A name that passes is stored as it is, UTF-8 encoded, so distinct names
are distinct members (an ASCII name is stored without zip's UTF-8 flag,
and read back the same as cp437).
"""
import zipfile

from pycg._errors import Api, Position, TypeOf, user_error

_MAX_BYTES = 0xFFFF - len(".npy")   # (the zip format's 16-bit name length)


def check_names(pairs, who: Api) -> None:
    """A ValueError naming `who` and the variable for the first of the
    (name, variable) pairs (names: non-empty strs) whose name a .npz file
    cannot hold as it is."""
    for i, (name, _) in enumerate(pairs):
        _check(name, i, who)


def _check(name, i, who):
    if "\x00" in name:
        raise _refused(who, i, name, "holds a NUL character, where zip "
                       "files end a member name")
    if "\\" in name:
        raise _refused(who, i, name, "holds a backslash, which zip readers "
                       "on Windows read as a folder separator ('/' separates "
                       "the parts of a name)")
    parts = name.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise _refused(who, i, name, "has an empty, '.' or '..' part between "
                       "its '/' separators; a zip reader extracting the file "
                       "would write elsewhere")
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _refused(who, i, name, f"is not valid Unicode text ({e.reason} "
                       f"at position {e.start}); zip member names are "
                       f"UTF-8") from None
    if len(encoded) > _MAX_BYTES:
        raise _refused(who, i, name, f"is {len(encoded)} bytes long in "
                       f"UTF-8; a zip member name holds at most "
                       f"{_MAX_BYTES} (with '.npy')")
    stored = zipfile.ZipInfo(name + ".npy").filename
    if stored != name + ".npy":   # (what zipfile would change otherwise)
        raise _refused(who, i, name, f"would be stored as {stored!r}")


def _refused(who, i, name, why):
    return user_error(ValueError, "{api}: the name {name} of item {i} " + why
                      .replace("{", "{{").replace("}", "}}") + "; rename it "
                      "(pass a {dict} of name -> Variable)", api=who,
                      name=_shown(name), i=Position(i), dict=TypeOf({}))


def _shown(name):
    """The name as a Python literal of ASCII (a NUL, a surrogate escaped),
    its first 60 characters for a long one."""
    shown = ascii(name)
    return shown if len(shown) <= 64 else shown[:60] + "...'"

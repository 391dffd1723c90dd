"""The files pycg writes and reads for a user: written whole or not at all,
and read only when they are regular files.

`replace_atomically(path, write, api)` writes beside `path` into a new
temporary file, flushes and fsyncs it, then renames it over `path` with
os.replace and fsyncs the folder (what TensorFlow's and Orbax's
checkpointers do): a full disk, a file-size limit, an exception or Ctrl-C
at any moment leaves the previous file as it was and no temporary file
behind. `open_regular(path, api)` opens a file for reading only if it is a
regular file: a FIFO, a device, a directory or a socket is refused before
anything could block on it.
"""
import os
import secrets
import stat

from pycg._errors import Api, Value, user_error

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def as_path(path, api: Api) -> str:
    """`path` (a str or os.PathLike) as a str, or a TypeError naming `api`."""
    try:
        name = os.fspath(path)
    except TypeError:
        name = None
    if not isinstance(name, str) or not name:
        raise user_error(TypeError, "{api}: `path` must be a file name (a "
                         "non-empty str or os.PathLike), got {value}",
                         api=api, value=Value(path))
    return name


def replace_atomically(path: str, write, api: Api) -> None:
    """Run `write(f)` on a new binary file beside `path`, then put that file
    in `path`'s place at once. A symlink at `path` keeps pointing at the
    file, now new; an existing file's permission bits are kept."""
    target = os.path.realpath(path)
    folder, base = os.path.split(target)
    temporary = os.path.join(folder, f".{base}.{secrets.token_hex(6)}.tmp")
    try:
        _refuse_special(target, path, api, "write")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                     _O_CLOEXEC | _O_BINARY, 0o666)
    except OSError as e:
        raise _cannot(api, "write", path, e) from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        _keep_mode(target, temporary)
        os.replace(temporary, target)
    except BaseException as e:
        _remove(temporary)
        if isinstance(e, OSError):
            raise _cannot(api, "write", path, e) from None
        raise
    _sync_folder(folder)


def open_regular(path: str, api: Api):
    """`path` opened for binary reading, if it is a regular file."""
    try:
        _refuse_special(path, path, api, "read", missing_ok=False)
        # (non-blocking: a FIFO put there since opens without a writer)
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_NOCTTY |
                     _O_CLOEXEC | _O_BINARY)
    except OSError as e:
        raise _cannot(api, "read", path, e) from None
    try:
        _refuse_special(fd, path, api, "read")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _refuse_special(where, path, api, verb, missing_ok=True):
    """A user error if `where` (a path or an fd) is not a regular file."""
    try:
        mode = os.stat(where).st_mode
    except FileNotFoundError:
        if missing_ok:
            return
        raise
    for test, kind in _KINDS:
        if test(mode):
            raise user_error(
                ValueError, "{api}: {path} is {kind}, not a regular file; "
                "{api} {verb}s regular files only", api=api,
                path=Value(path), kind=kind, verb=verb)


def _cannot(api, verb, path, e):
    """OSError `e` (its class kept) as a message naming `api` and `path`."""
    reason = e.strerror or str(e)
    left = "; the file there is left as it was" if verb == "write" and \
        os.path.lexists(path) else ""
    return user_error(type(e), "{api}: cannot {verb} {path} ({reason})"
                      + left, api=api, verb=verb, path=Value(path),
                      reason=reason)


def _keep_mode(target, temporary):
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return   # (a new file: 0o666 less the umask, as open() gives)
    os.chmod(temporary, mode)


def _remove(temporary):
    try:
        os.unlink(temporary)
    except OSError:
        pass


def _sync_folder(folder):
    """fsync the folder, so that the rename itself survives a crash (where
    folders cannot be opened, as on Windows, there is nothing to do)."""
    try:
        fd = os.open(folder, os.O_RDONLY | _O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)

"""pycg.r: R functions called from Python, in this process, on the Python
tape. The checks that could take the process down (threads) run in a fresh
interpreter; tests/test_r_exit.py checks the exit."""
import inspect
import subprocess
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops
from support.log1pexp_case import R_LOG1PEXP as LOG1PEXP
from support.r_bridge_helpers import r_env, require_r, run_python


@pytest.fixture(scope="module")
def r():
    require_r()
    import pycg.r
    return pycg.r


@pytest.fixture(scope="module")
def log1pexp(r):
    return r.function(LOG1PEXP)


def values(t):
    """A tensor's elements as Python lists (a Python number as itself)."""
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t).tolist()


# ---- values across the boundary ---------------------------------------------

def test_a_tensor_reaches_r_as_the_same_python_object(r, backend):
    x = pycg.constant([1.0, 2.0])
    same = r.function("function(x) list(x, x, reticulate::py_id(x))")
    back, again, seen_id = same(x)
    assert back is x and again is x
    assert int(seen_id) == id(x)


def test_tensors_inside_lists_and_dicts_keep_their_identity(r):
    x, y = pycg.constant(1.0), pycg.constant(2.0)
    out = r.function("function(l, d) list(l = l, d = d)")([x, y], {"k": y})
    assert out["l"][0] is x and out["l"][1] is y and out["d"]["k"] is y


@pytest.mark.parametrize("value, r_class", [
    (1.5, "numeric"), (2, "integer"), (2 ** 40, "numeric"), (True, "logical"),
    ("text", "character"), (None, "NULL"), (1 + 2j, "complex")])
def test_python_scalars_become_r_scalars(r, value, r_class):
    assert r.call("class", value) == r_class


def test_a_large_python_int_keeps_its_value_in_r(r):
    assert float(r.function("function(x) x")(2 ** 40)) == 2.0 ** 40


def test_numpy_arrays_become_r_arrays_with_the_same_elements(r):
    a = np.arange(6.0).reshape(2, 3)
    inspect_r = r.function("function(m) c(dim(m), m[2, 3], m[1, 2])")
    assert values(inspect_r(a)) == [2, 3, 5.0, 1.0]
    b = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    back = r.function("function(a) a")(b)
    assert back.dtype == "int32" and np.array_equal(back.numpy(), b)
    assert r.call("is.logical", np.array([True, False])) is True


def test_values_crossing_either_way_are_copies_each_side_owns(r, backend):
    # R writes in place into a vector that one name holds (x[1] <- 10); a
    # tensor made from it, or a NumPy array R received, keeps its value
    keep = r.eval("local({ x <- seq_len(3) + 0; list("
                  "give = function() x, change = function() x[1] <<- 10) })")
    given = keep["give"]()
    keep["change"]()
    assert values(given) == [1.0, 2.0, 3.0]
    a = np.array([1.0, 2.0, 3.0])
    changed = r.function("function(v) { v[1] <- 10; v }")(a)
    assert a.tolist() == [1.0, 2.0, 3.0] and values(changed)[0] == 10.0


def test_a_1d_array_becomes_an_r_vector(r):
    assert values(r.function("function(v) length(dim(v))")(
        np.array([1.0, 2.0]))) == 0


def test_an_r_matrix_becomes_a_tensor_with_r_layout(r):
    m = r.eval("matrix(1:6, nrow = 2)")
    assert m.shape == (2, 3) and m.dtype == "int32"
    assert values(m) == [[1, 3, 5], [2, 4, 6]]
    a = r.eval("array(as.double(1:24), c(2, 3, 4))")
    assert np.array_equal(a.numpy(), np.arange(1.0, 25).reshape(
        (2, 3, 4), order="F"))


def test_a_length_1_r_number_becomes_a_python_number(r):
    # the rule of the R package's op arguments, and reticulate's r_to_py()
    for code, value in [("2.5", 2.5), ("2L", 2), ("TRUE", True),
                        ("1+2i", 1 + 2j)]:
        out = r.eval(code)
        assert type(out) is type(value) and out == value
    assert np.isnan(r.eval("NA_real_"))


def test_an_r_vector_or_array_becomes_a_tensor(r):
    assert values(r.eval("c(TRUE, FALSE)")) == [True, False]
    assert r.eval("c(1, 2, 3)").shape == (3,)
    assert r.eval("matrix(2.5)").shape == (1, 1)
    assert r.eval("numeric(0)").shape == (0,)
    assert np.isnan(values(r.eval("c(1, NA)"))[1])


def test_r_lists_strings_and_null_become_python_values(r):
    assert r.eval("NULL") is None
    assert r.eval("'a'") == "a"
    assert r.eval("c('a', 'b')") == ["a", "b"]
    named = r.eval("list(a = 'x', b = NULL)")
    assert named == {"a": "x", "b": None}
    assert r.eval("list('x', 'y')") == ["x", "y"]


def test_python_lists_and_dicts_become_r_lists(r):
    describe = r.function(
        "function(l) c(length(l), if (is.null(names(l))) '' else names(l))")
    assert describe([1, "a", None]) == ["3", ""]
    assert describe({"p": 1, "q": 2}) == ["2", "p", "q"]


def test_names_and_strings_cross_as_their_text_in_a_c_locale_r():
    # a C-locale R has only ASCII: "\u00e9" in R code makes a UTF-8-marked
    # string there, iconv() a latin1-marked one, as read from a latin1 file
    require_r()
    status, out = run_python(r"""
        import pycg.r
        named = pycg.r.eval(r"l <- list(1, 2, 3); names(l) <- c('poids_\u00e9', "
                            r"iconv(c('\u00fc', 'gr\u00f6\u00dfe'), 'UTF-8', "
                            r"'latin1')); l")
        print("keys", ascii(sorted(named)))
        print("value", ascii(pycg.r.eval(
            r"iconv('gr\u00f6\u00dfe', 'UTF-8', 'latin1')")))
        same = pycg.r.function(
            r"function(l) identical(names(l), c('poids_\u00e9', '\u00fc'))")
        print("names in R", same({"poids_\xe9": 1, "\xfc": 2}))
    """, env={"LC_ALL": "C"})
    assert status == 0, out
    assert r"keys ['gr\xf6\xdfe', 'poids_\xe9', '\xfc']" in out, out
    assert r"value 'gr\xf6\xdfe'" in out, out
    assert "names in R True" in out, out


def test_a_string_array_is_refused_before_it_reaches_r(r):
    with pytest.raises(TypeError, match=r"an array of strings \(dtype <U1\) "
                       r"cannot go to R.*pass a list"):
        r.call("length", np.array(["a", "b"]))
    assert float(r.call("length", ["a", "b"])) == 2  # a list does go


def test_an_r_integer_na_is_refused_with_the_fix(r):
    with pytest.raises(r.RError, match="NA"):
        r.eval("c(1L, NA)")
    with pytest.raises(r.RError, match="no integer or logical NA"):
        r.eval("NA")   # reticulate would pass True


def test_an_r_na_string_is_refused_not_sent_as_text(r):
    with pytest.raises(r.RError, match="NA at position 2; Python strings "
                       "have no NA"):
        r.eval("c('a', NA)")
    with pytest.raises(r.RError, match="NA at position 1"):
        r.eval("NA_character_")   # reticulate would pass "NA"


def test_an_r_list_named_in_part_or_twice_is_refused(r):
    with pytest.raises(r.RError, match="element 1 unnamed.*dict"):
        r.eval("list(1, b = 2)")
    with pytest.raises(r.RError, match="the name `a` twice"):
        r.eval("list(a = 1, a = 2)")   # a dict would keep one


def test_an_r_tuple_and_function_become_a_tuple_and_a_callable(r):
    assert r.eval("tuple(1L, 'a')") == (1, "a")
    inc = r.eval("function(v, by = 1) v + by")
    assert isinstance(inc, r.RFunction)
    assert str(inspect.signature(inc)) == "(v, by=None)"
    assert inc(2, by=3) == 5.0


def test_a_python_callback_receives_r_values_by_the_same_rules(r):
    seen = []

    def record(*args, **kwargs):
        seen.append((args, kwargs))
        return None

    r.function("function(f) f(2.5, c(1, 2), 'a', b = list(p = 1L))")(record)
    (scalar, vector, text), kwargs = seen[0]
    assert type(scalar) is float and scalar == 2.5
    assert values(vector) == [1.0, 2.0] and text == "a"
    assert kwargs == {"b": {"p": 1}}


def test_an_r_environment_is_refused_with_the_fix(r):
    with pytest.raises(r.RError, match="the R value bound for Python must "
                       "be .* not an R environment"):
        r.eval("new.env()")


# ---- functions, names and files ---------------------------------------------

def test_call_finds_base_package_and_global_functions(r):
    assert float(r.call("sum", 1, 2, 3)) == 6
    x = pycg.constant(2.0)
    assert float(r.call("pycg::op_add", x, 1)) == 3.0
    r.eval("pycg_bridge_twice <- function(v) 2 * v")
    assert float(r.call("pycg_bridge_twice", 4)) == 8.0


def test_keyword_arguments_bind_by_name(r):
    minus = r.function("function(a, b) a - b")
    assert float(minus(b=1, a=5)) == 4.0


def test_an_r_function_shows_its_r_formals_as_its_signature(r):
    fn = r.function("function(x, y = 2, ..., upstream = NULL) x")
    assert str(inspect.signature(fn)) == "(x, y=None, *args, upstream=None)"


def test_an_r_argument_named_args_beside_dots_keeps_both(r):
    first = r.function("function(args, ...) args")
    assert str(inspect.signature(first)) == "(args, *args_)"
    assert float(first(1)) == 1.0
    assert values(r.function("function(args, ...) c(args, ...)")(1, 2, 3)) \
        == [1, 2, 3]


def test_an_r_function_with_an_argument_python_cannot_name_is_callable(r):
    sd = r.function("function(x, na.rm = FALSE) sd(x, na.rm)")
    assert str(inspect.signature(sd)) == "(*args, **kwargs)"
    assert float(sd(np.array([1.0, 3.0]))) == pytest.approx(2 ** 0.5)


def test_function_wants_code_whose_value_is_a_function(r):
    with pytest.raises(TypeError, match="must evaluate to a function, got"):
        r.function("1 + 1")


def test_source_returns_the_functions_a_file_defines(r, tmp_path):
    path = tmp_path / "rules.R"
    path.write_text("scale_by <- 3\n"
                    "triple <- function(x) x * scale_by\n"
                    "half <- function(x) x / 2\n")
    funs = r.source(path)
    assert sorted(funs) == ["half", "triple"]
    assert float(funs["triple"](2.0)) == 6.0
    assert funs["half"].__name__ == "half"


def test_source_of_a_missing_file_names_it(r, tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such.R"):
        r.source(tmp_path / "no-such.R")


# ---- errors and warnings ----------------------------------------------------

def test_an_r_error_raises_rerror_with_the_r_message(r):
    with pytest.raises(r.RError, match="bad input") as info:
        r.function("function() stop('bad input')")()
    assert "simpleError" in info.value.classes


def test_an_unknown_r_function_name_is_an_rerror(r):
    with pytest.raises(r.RError, match="no_such_function"):
        r.call("no_such_function")


def test_a_python_exception_inside_r_comes_out_as_itself(r):
    class Refused(Exception):
        pass

    def refuse(v):
        raise Refused("not this one")

    with pytest.raises(Refused, match="not this one"):
        r.function("function(f) f(1)")(refuse)


def test_a_python_callable_is_an_r_function_in_r(r):
    twice = r.function("function(f, v) f(f(v))")
    assert float(twice(lambda v: ops.multiply(v, 2.0), 3.0)) == 12.0


def test_r_calling_python_calling_r_reenters_safely(r):
    inner = r.function("function(x) x * 10")
    outer = r.function("function(f, x) f(x) + 1")
    assert float(outer(inner, pycg.constant(2.0))) == 21.0


def test_an_r_warning_is_a_python_warning(r):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r.eval("warning('careful'); 1")
    assert [str(w.message) for w in seen] == ["careful"]
    assert seen[0].category is r.RWarning


# ---- gradients --------------------------------------------------------------

def test_ops_applied_in_r_are_recorded_on_the_python_tape(r, backend):
    square_sum = r.function("function(x) op_sum(x * x)")
    x = pycg.constant([1.0, -2.0, 3.0])
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = square_sum(x)
    assert values(tape.gradient(y, x)) == [2.0, -4.0, 6.0]


def test_r_log1pexp_inside_a_python_tape_has_gradient_one(
        r, log1pexp, backend):
    x = pycg.constant(100.0, "float64")
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert float(tape.gradient(y, x)) == 1.0


def test_r_log1pexp_under_pycg_grad_has_gradient_one(r, log1pexp, backend):
    assert float(pycg.grad(log1pexp)(pycg.constant(100.0, "float64"))) == 1.0


@pytest.mark.parametrize("grad", [
    "function(upstream) upstream * 3 * x^2",
    "function(x, upstream) upstream * 3 * x^2",
    "function(..., upstream = NULL) (upstream %||% ..1) * 3 * ..1^2",
])
def test_each_r_grad_signature_works_inside_a_python_tape(r, grad, backend):
    cube = r.function(
        f"op_custom_gradient(function(x) tuple(x^3, {grad}))")
    x = pycg.constant(2.0)
    assert float(pycg.grad(cube)(x)) == 12.0


def test_python_custom_gradient_takes_an_r_forward_and_grad(r, backend):
    forward = r.function("""function(x) {
      e <- op_exp(x)
      list(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
    }""")
    log1pexp = pycg.custom_gradient(forward)
    assert float(pycg.grad(log1pexp)(pycg.constant(100.0, "float64"))) == 1.0


def test_an_r_function_mixing_r_and_python_ops_has_one_gradient(r, backend):
    mixed = r.function("function(f, x) op_sum(f(x) * exp(x))")

    def loss(x):
        return mixed(ops.sin, x) + ops.sum(x * x)

    xv = np.array([0.5, 1.0])
    g = pycg.grad(loss)(pycg.constant(xv))
    expected = (np.cos(xv) + np.sin(xv)) * np.exp(xv) + 2 * xv
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-5)


def test_an_r_grad_error_reaches_python_with_the_r_message(r, backend):
    broken = r.function(
        "op_custom_gradient(function(x) tuple(x * 2, "
        "function(upstream) stop('no gradient today')))")
    with pytest.raises(r.RCallbackError, match="no gradient today") as info:
        pycg.grad(broken)(pycg.constant(1.0))
    assert isinstance(info.value, r.RError)   # one except clause catches all
    assert "simpleError" in info.value.classes


# ---- threads ----------------------------------------------------------------

THREADS = """
import threading
import pycg, pycg.r
pycg.config.set_backend("tensorflow")
add = pycg.r.function("function(x, i) { Sys.sleep(0.001); op_add(x, i) }")
log1pexp = pycg.r.function('''@LOG1PEXP@''')
X100 = pycg.constant(100.0, "float64")
errors, done = [], []

def work(k):
    try:
        x = pycg.constant(float(k))
        for i in range(@ROUNDS@):
            assert float(add(x, i)) == k + i
            @EXTRA@
        done.append(k)
    except BaseException as e:
        errors.append(repr(e))

threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("done", sorted(done), errors[:3])
"""


def threads_script(rounds, extra):
    return THREADS.replace("@LOG1PEXP@", LOG1PEXP).replace(
        "@ROUNDS@", str(rounds)).replace("@EXTRA@", extra)


def test_threads_calling_r_at_once_are_serialised():
    require_r()
    status, out = run_python(threads_script(
        60, "assert float(log1pexp(pycg.constant(1.0))) > 1.3"))
    assert status == 0, out
    assert "done [0, 1, 2, 3, 4, 5, 6, 7] []" in out, out


def test_threads_differentiating_r_rules_in_python_tapes_do_not_crash():
    require_r()
    status, out = run_python(threads_script(
        60, "assert float(pycg.grad(log1pexp)(X100)) == 1.0"))
    assert status == 0, out
    assert "done [0, 1, 2, 3, 4, 5, 6, 7] []" in out, out


def test_bridge_refuses_clearly_inside_a_reticulate_hosted_python():
    env = r_env()
    code = ('library(reticulate); r <- tryCatch(py_run_string("import pycg.r;'
            ' pycg.r.call(\\"sum\\", 1)"), error = function(e) '
            'conditionMessage(e)); cat(r)')
    run = subprocess.run(["Rscript", "-e", code], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "this Python runs inside R (through reticulate)" in run.stdout


def test_an_r_custom_gradient_compiles_into_one_graph():
    require_r()
    import pycg.r
    calls = pycg.r.function("""
      local({ n <- 0; function() { n <<- n + 1; n } })""")
    log1pexp = pycg.r.function("""
      function(counter) op_custom_gradient(function(x) {
        counter()
        e <- op_exp(x)
        tuple(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
      })""")(calls)
    previous = pycg.config.backend()
    pycg.config.set_backend("tensorflow")
    try:
        slope = pycg.function(pycg.grad(lambda x: ops.sum(log1pexp(x))))
        first = slope(pycg.constant([0.0, 30.0])).numpy()
        second = slope(pycg.constant([1.0, 2.0])).numpy()
    finally:
        pycg.config.set_backend(previous)
    sig = lambda v: 1 / (1 + np.exp(-np.array(v)))  # noqa: E731
    assert np.allclose(first, sig([0.0, 30.0]), rtol=1e-6)
    assert np.allclose(second, sig([1.0, 2.0]), rtol=1e-6)
    assert slope.trace_count == 1
    assert float(calls()) == 2.0  # R ran once, at trace time (plus this call)


# ---- interrupts --------------------------------------------------------------

INTERRUPTS = """
import os, signal, threading, time
import pycg, pycg.r
from pycg import ops
from pycg.core import recorder as core

cases = {
    "an R loop": pycg.r.function("function(x) repeat {}"),
    "an R loop calling ops": pycg.r.function(
        "function(x) repeat { x <- op_add(x, 1) }"),
    "an R gradient rule": pycg.r.function(
        "op_custom_gradient(function(x) tuple(x * 2, "
        "function(upstream) repeat {}))"),
    "an R sleep": pycg.r.function("function(x) Sys.sleep(30)"),
    "an R gradient rule sleeping": pycg.r.function(
        "op_custom_gradient(function(x) tuple(x * 2, "
        "function(upstream) Sys.sleep(30)))"),
}
x = pycg.constant([1.0, 2.0])
for name, f in cases.items():
    # (1.5 s: the call is in its loop by then also on a loaded machine)
    threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    try:
        try:
            if "rule" in name:
                pycg.grad(lambda v: ops.sum(f(v)))(x)
            else:
                f(x)
        except Exception as e:   # a training loop's: must not catch it
            print(name, "| caught by except Exception:", repr(e))
    except KeyboardInterrupt as e:
        print(name, "|", type(e).__name__, "|", e, "|",
              round(time.monotonic() - start, 1))
    print(name, "| recording:", core.is_recording(), "| next gradient:",
          pycg.grad(lambda v: ops.sum(v * v))(x).numpy().tolist())
"""


def test_an_interrupt_in_r_code_is_a_keyboard_interrupt_in_python(r):
    status, out = run_python(INTERRUPTS, timeout=300)
    assert status == 0, out
    lines = [line.split(" | ") for line in out.splitlines() if " | " in line]
    caught = [line for line in lines if "except Exception" in line[1]]
    assert caught == []
    landed = {line[0]: line[1:] for line in lines if len(line) == 4}
    assert landed["an R loop"][:2] == [
        "KeyboardInterrupt", "interrupted in <R function>, run by pycg.r"]
    assert landed["an R loop calling ops"][0] == "KeyboardInterrupt"
    assert landed["an R gradient rule"][:2] == [
        "RCallbackInterrupt", "interrupted while pycg was running R code (in "
        "the "
        "gradient of fn)"]
    assert landed["an R sleep"][0] == "KeyboardInterrupt"
    assert landed["an R gradient rule sleeping"][0] == \
        "RCallbackInterrupt"
    assert len(landed) == 5
    assert all(float(v[2]) < 5 for v in landed.values())   # promptly
    states = [line for line in lines if line[1].startswith("recording")]
    assert len(states) == 5
    assert all(s[1:] == ["recording: False", "next gradient: [2.0, 4.0]"]
               for s in states)


PYTHON_INTERRUPTS = """
import itertools, os, signal, subprocess, threading, time
import pycg, pycg.r
from pycg import ops
from pycg.core import recorder as core

def spin():
    start = time.monotonic()
    while time.monotonic() - start < 20:
        pass

cases = {
    "a Python loop": spin,
    "a Python sleep": lambda: time.sleep(20),
    "a loop of ops": lambda: [ops.sum(ops.exp(pycg.constant([1.0] * 50)))
                              for _ in range(10 ** 8)],
    "Python called from R": lambda: pycg.r.function("function(f) f()")(spin),
    "an R loop": lambda: pycg.r.function("function() repeat {}")(),
}
senders = ["a thread", "another process"]
assert float(pycg.r.call("sum", 1, 2)) == 3   # R has started
ops.sum(ops.exp(pycg.constant([1.0])))   # (the first op imports TensorFlow)
for (case, f), sender in itertools.product(cases.items(), senders):
    name = f"{case}, SIGINT from {sender}"
    if sender == "a thread":
        threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    else:   # as Ctrl-C (1.5 s: in the loop also on a loaded machine)
        subprocess.Popen(["sh", "-c", f"sleep 1.5; kill -INT {os.getpid()}"])
    start = time.monotonic()
    try:
        try:
            f()
            print(name, "| ran to the end")
        except Exception as e:   # a training loop's: must not catch it
            print(name, "| caught by except Exception:", repr(e))
    except KeyboardInterrupt:
        print(name, "| KeyboardInterrupt |", round(time.monotonic() - start, 1))
    print(name, "| next R call:", float(pycg.r.call("sum", 1, 2)),
          "| recording:", core.is_recording())
"""


def test_ctrl_c_in_python_code_is_a_keyboard_interrupt_once_r_started(r):
    status, out = run_python(PYTHON_INTERRUPTS, timeout=300)
    assert status == 0, out
    lines = [line.split(" | ") for line in out.splitlines() if " | " in line]
    landed = {line[0]: line[1:] for line in lines
              if not line[1].startswith("next R call")}
    assert len(landed) == 10, out
    assert all(v[0] == "KeyboardInterrupt" for v in landed.values()), out
    assert all(float(v[1]) < 5 for v in landed.values()), out   # promptly
    after = [line[1:] for line in lines if line[1].startswith("next R call")]
    # R's interrupt flag is not left set for the next R call to take
    assert after == [["next R call: 3.0", "recording: False"]] * 10, out

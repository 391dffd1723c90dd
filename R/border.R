# The border check: what every call into Python (R/calls.R) asks first.
#
# An R value can carry a Python object's class without holding one: base R's
# marginSums() puts its argument's class on a plain R vector, `class<-` puts
# any class on anything, and a tensor saved by saveRDS() is a dead pointer
# in the next session. reticulate reads such a value as a Python object's
# pointer and crashes R, so each call into Python (py_call(), py_apply(),
# op_call(), py_attr(), pycg_to_numpy()) checks its arguments here first.

python_classes <- c("python.builtin.object", "pycg.tensor.Tensor",
                    "pycg.api.tape.GradientTape")

# Stops, naming the user's function, at the first value in `args` (a list,
# searched through nested lists) that has a Python class but no live
# Python object. (A tensor, an environment, takes the quick test first:
# this runs on every call into Python.)
check_live <- function(args) {
  for (a in args) {
    if (is.environment(a)) {
      if (!has_live_pointer(a) && is.object(a) &&
          inherits(a, python_classes) && !is_live_python(a))
        stop_not_live(a)
    } else if (is.object(a) && inherits(a, python_classes) &&
               !is_live_python(a)) {
      stop_not_live(a)
    }
    if (is.list(a)) check_live(a)
  }
}

# Whether x (an environment) holds the pointer reticulate keeps in it, not
# null: the quick test, which an environment laid out otherwise fails (then
# is_live_python() decides).
has_live_pointer <- function(x) {
  p <- .subset2(x, "pyobj")
  typeof(p) == "externalptr" && !identical(p, null_pointer)
}

null_pointer <- new("externalptr")

# Whether x holds a Python object of this session: reticulate's
# environment (a callable's closure carries it as its "py_object") with a
# pointer that is not null.
is_live_python <- function(x) {
  if (is.function(x)) x <- attr(x, "py_object", exact = TRUE)
  is.environment(x) && !reticulate::py_is_null_xptr(x)
}

stop_not_live <- function(x) {
  held <- if (is.environment(x)) {
    if (exists("pyobj", envir = x, inherits = FALSE))
      paste("a Python object of an earlier R session (saved with",
            "saveRDS(), which keeps no Python object)")
    else "an R environment"
  } else if (is.null(x)) "NULL" else if (typeof(x) == "externalptr")
    "an external pointer" else
    sprintf("an R %s of length %d", typeof(x), length(unclass(x)))
  stop(sprintf(paste0(
    "%s: an argument has the class of a pycg tensor (%s) but is not a live ",
    "Python object: it holds %s. Base R functions that copy their ",
    "argument's class onto their own R result (marginSums(), ...) make ",
    "such values: give them as.array(x), or make a tensor of the values ",
    "with op_convert_to_tensor(unclass(x))"), border_caller(),
    class(x)[1L], held), call. = FALSE)
}

# The function the user called: pycg's exported name on the stack, else the
# outermost generic whose pycg method is running (print(), length(), ...).
border_caller <- function() {
  caller <- calling_function()
  if (!identical(caller, "pycg")) return(caller)
  for (i in seq_len(sys.nframe())) {
    generic <- get0(".Generic", envir = sys.frame(i), inherits = FALSE)
    if (is.character(generic) && length(generic) == 1L)
      return(paste0(generic, "()"))
  }
  caller
}

# A Python attribute of a tensor R holds (its shape, its dtype), after the
# border check.
py_attr <- function(x, name) {
  check_live(list(x))
  py_get_attr(x, name)
}

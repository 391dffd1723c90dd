"""Where pycg stands where its peers differ: how `custom_gradient` calls a
rule written in any peer's convention (the documents of tf.custom_gradient,
keras.ops.custom_gradient, jax.custom_gradient and keras3's
op_custom_gradient: every example of theirs runs against pycg in
tests/test_custom_gradient_reference.py), and the choices pycg makes where
TensorFlow, Keras, JAX, NumPy and R give different answers (each op's own
are in its docstring, under Differs).

>>> import pycg
>>> "grad_fn's signature" in pycg.conventions.__doc__
True

Choices where the peers differ
==============================

Every op pycg.ops shares with keras.ops is compared with Keras itself at
ordinary and edge inputs (0, -0, +-inf, NaN, empty, bfloat16, complex, int,
bool) on both backends by `tests/test_ops_keras_sweep.py`; each difference it
finds is listed, chosen or still open, in
[docs/keras-differences.md](docs/keras-differences.md), generated from the
table the test reads. The main choices:

- Python floats become float32 (`pycg.config.floatx()`), Python ints int32,
  NumPy arrays keep their dtype; a Python number next to a tensor takes the
  tensor's dtype; two tensors of different dtypes promote as NumPy does.
- Dividing two integer or bool operands gives floatx, as Keras does (NumPy
  and TensorFlow give float64); a Python int next to a bool tensor makes
  both int32 (Keras), where NumPy would keep bool (`mask + 3` is `True`).
- Integer and bool inputs elsewhere follow keras.ops too, on both backends:
  `floor`, `ceil`, `arctan2` and `logaddexp` of integers are floatx; `sum`
  and `prod` of bool, int8, int16 (uint8, uint16) count in int32 (uint32);
  logical ops take any number as its truth; `matmul` of int8 gives int32.
  Where a TensorFlow kernel has no integer or bool version (Floor, Abs of
  uint8, MatMul of int16), the tensorflow backend goes through one that has.
- A Python int that does not fit an integer tensor's dtype (`uint8 tensor +
  -2`) is an error that names the op, the number and the dtype, as in NumPy 2
  and JAX; Keras on TensorFlow wraps it around (255) silently.
- Activations of integer and bool inputs compute in floatx (Keras on JAX;
  Keras on TensorFlow has no kernel), except `relu`, which keeps integers
  (TensorFlow's kernel) and refuses bool. A complex input to an activation
  that is not defined there (`relu`, `softplus`, `elu`, `gelu`, the hard and
  sparse ones) is an error, never its real part; `sigmoid`, `silu`/`swish`,
  `tanh_shrink` and `squareplus` compute on complex numbers as TensorFlow's
  kernels do (Keras answers `hard_shrink`, `soft_shrink` and `sparse_plus` of
  complex by comparing real parts; pycg refuses them).
- A float cast to an integer has one answer on every backend and CPU,
  TensorFlow's on x86 (NumPy's and PyTorch's there too): NaN, +-inf and a
  value outside int32 (int64, for int64) are INT_MIN, and an 8- or 16-bit
  type takes that int32's low bits (`cast([3e9, nan], "int32")` is INT_MIN
  twice; JAX and ARM CPUs would clamp). uint32 and uint64 take that int32's
  (int64's) bits, and a value in their upper half is itself (-1.0 is
  2**32 - 1, 3e9 is 3e9, NaN and 2**32 are 2**31: TensorFlow's vectorised
  kernel; NumPy and PyTorch give 0 for some). An integer `floor_divide` or
  `mod` by 0, of any width, signed or not, is 0 on every backend (NumPy's,
  JAX's and PyTorch's answer; TensorFlow's kernels raise
  InvalidArgumentError).
- An integer or boolean tensor never gets a gradient: `watch` warns and the
  gradient is `None` (zeros with `unconnected_gradients="zero"`), as in
  TensorFlow. `pycg.grad` refuses an integer argument with an error, as JAX does.
- `sign`, `floor`, `ceil` and `round` have a zero gradient; comparisons and
  `argmax`/`argmin` have none.
- bfloat16 and float16 are floating dtypes like any other: watched,
  differentiated and updated by the optimizers in their own precision, as
  TensorFlow and Keras do (Keras' Adam makes no step on a bfloat16 variable,
  whose 1 - beta_2 rounds to 0, and neither does pycg's); the two together
  give float32, as in Keras. On the numpy backend bfloat16 is ml_dtypes'
  type (installed with TensorFlow), and matmul and einsum compute it in
  float32 and round back.
- `max`/`min` share the gradient equally between tied elements (TensorFlow's rule).
- `selu`'s gradient at 0 is its scale, as TensorFlow's (JAX's is scale times
  alpha); `rsqrt`'s gradient at -0.0 is +inf, as TensorFlow's.
- A zero upstream gradient where an op's own derivative is infinite gives
  TensorFlow's answer: 0 through `sqrt`, `rsqrt`, `reciprocal` and `cumprod`
  (TensorFlow's fused kernels and `div_no_nan`), so the guard idiom
  `where(x > 0, sqrt(x), 0)` has gradient 0 at 0; nan through `log`,
  `divide`, `arcsin` and the others where TensorFlow multiplies 0 by inf
  (`tests/test_zero_upstream.py`). Two gradients are the true derivative
  where Keras' composition gives another: `sinc` at 0 (0; Keras nan) and
  `logaddexp` at ties (1/2 each; Keras gives all to `x1`).
- From R, a zero upstream is a strong zero: inside
  `pycg.core.backward.strong_zeros()`, which every call of the R package
  runs in, a position whose value is NaN and whose upstream gradient is
  exactly 0 is not reached and contributes exactly 0 whatever its own
  derivative (the rules of the
  elementwise ops, through the backward loop; `max`, `min` and `prod` over
  an axis; the rows and columns of `matmul` whose upstream is all 0), so
  `sum(ll, na.rm = TRUE)` and `ll[!is.na(y)]` give the gradient of the
  observed part where TensorFlow, PyTorch and JAX give NaN
  (`tests/test_strong_zeros.py`). Python's gradients keep TensorFlow's
  answer unless that context is entered.
- A tensor made under one backend and used under the other is converted.
- `max`, `min` (and `amax`, `amin`, `ptp`, `nanmax`, `nanmin`), `argmax`
  and `argmin` over an axis of length 0 raise on both backends, as keras.ops
  and NumPy do (TensorFlow's kernels give -inf/inf and NumPy's error text
  differs); `initial=` gives `max`/`min` a value there (NumPy's). Keras gives
  nan for `nanmax` of nothing; pycg raises, as NumPy does.
- Where keras.ops' two backends differ, pycg takes its TensorFlow backend's
  answer: `stft`/`istft` build an odd-length `"hann"`/`"hamming"` window
  symmetric (TensorFlow's `periodic=True` affects even lengths only; SciPy's
  is periodic for all); `sparse_categorical_crossentropy` clips `output`,
  then rescales it to sum 1; a `quantile` whose position falls exactly on a
  sorted element takes the left segment's gradient with respect to `q`.
  `eig` is complex on both backends (NumPy's is real when every eigenvalue
  is); `size` is an int32 tensor; `where(condition)` is `nonzero(condition)`.
- `median` and `quantile` of complex values raise (NumPy orders them
  lexicographically; keras.ops has no order for them); `var`/`std` of
  complex values are real, the mean of |x - mean|^2 (NumPy's and
  TensorFlow's).
- A NumPy scalar beside a tensor is a typed value, as in Keras
  (`int32 tensor + np.float64(0.5)` is float64); only Python ints and floats
  are weak.
- From R, floatx starts as float64 when the R package starts Python (R's
  numbers are doubles), so `op_exp(1)` equals `op_exp(c(1, 1))[1]`;
  `config_set_floatx("float32")` gives Keras' default.
- Where the ported peer suites (`tests/peers/`) expect otherwise, pycg
  follows TensorFlow on purpose, each pinned by a strict xfail and listed in
  [tests/peers/README.md](tests/peers/README.md): complex gradients use
  TensorFlow's conjugate convention (the gradient of Re(z*z) at 1+2j is
  2-4j, JAX gives its conjugate; through `pycg.to_jax` JAX's own, and
  through `pycg.to_torch` PyTorch's, which is TensorFlow's); a complex
  output is differentiated, not refused; a tangent is converted to its
  primal's dtype; `jvp` runs through custom gradients; tensors a
  custom_gradient function closes over get no gradient through it; shape
  mismatches raise ValueError and watching a NumPy array TypeError.

custom_gradient's calling conventions
=====================================

(the tables of help(pycg.custom_gradient))
"""
from pycg.custom import decorator as _decorator

if __doc__ and _decorator.__doc__:   # (None under python -OO)
    __doc__ += "\n" + _decorator.__doc__

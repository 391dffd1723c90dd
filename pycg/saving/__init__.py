"""Variables to and from portable .npz files (`variables.py`), written
whole or not at all and read only from regular files (`files.py`), under
names a zip member holds as they are (`names.py`), each .npy header read
only after its declared length is bounded (`npy.py`), and assigned to
every variable or to none (`all_or_nothing.py`)."""
from pycg.saving.variables import load_variables, save_variables

__all__ = ("load_variables", "save_variables")

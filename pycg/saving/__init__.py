"""Variables to and from portable .npz files (`variables.py`), written
whole or not at all and read only from regular files (`files.py`)."""
from pycg.saving.variables import load_variables, save_variables

__all__ = ("load_variables", "save_variables")

import numpy as np

ZERO = np.float64(0.0)
MISSING = np.nan

import numpy as np


def mean_or_nan(values):
    arr = np.asarray(values, dtype=np.float_)
    if arr.size == 0:
        return np.NaN
    return float(arr.mean())

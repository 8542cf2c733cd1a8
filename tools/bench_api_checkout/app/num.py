import numpy as np
from numpy import product


def mean(xs):
    return np.float_(sum(xs)) / len(xs) if xs else np.NaN


def prod(xs):
    return product(xs)

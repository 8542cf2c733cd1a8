#!/bin/sh
set -e
pip-compile --upgrade requirements.in

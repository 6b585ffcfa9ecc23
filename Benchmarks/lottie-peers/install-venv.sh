#!/usr/bin/env bash
# The benchmark-only Python environment for the Lottie peers (issue 14): ThorVG and rlottie as their
# PyPI wheels bundle them (the versions the corpus's references were rendered with), in the
# gitignored Benchmarks/.peers/lottie-venv. Nothing is vendored or committed.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.peers/lottie-venv
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import thorvg_python, rlottie_python, numpy' 2> /dev/null; then
    mkdir -p .peers
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet thorvg-python==1.1.3 rlottie-python==1.3.8 numpy
fi
echo "$PWD/$venv/bin/python"

# Shared by scripts/demo and scripts/test; source it, do not run it.
# Sets REPO_ROOT, makes sure .venv exists with the project installed, and puts .venv/bin first
# on PATH.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO_ROOT"

VENV="$REPO_ROOT/.venv"

ensure_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    local python=${PYTHON:-python3}
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "error: Python 3.11 or newer is needed; set PYTHON to one (tried '$python')." >&2
      exit 1
    fi
    echo "==> Creating virtual environment in .venv"
    "$python" -m venv "$VENV"
  fi
  export PATH="$VENV/bin:$PATH"
}

# install_project [EXTRA]: pip install -e '.[EXTRA]', skipped when pyproject.toml has not
# changed since the last install of the same extra.
install_project() {
  local extra=${1:-}
  local target="."
  local stamp="$VENV/.installed-project"
  if [ -n "$extra" ]; then
    target=".[$extra]"
    stamp="$VENV/.installed-project-$extra"
  fi
  if [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ]; then
    return 0
  fi
  echo "==> Installing $target into .venv"
  python -m pip install --quiet -e "$target"
  # An install with an extra also installs the plain project.
  touch "$stamp" "$VENV/.installed-project"
}

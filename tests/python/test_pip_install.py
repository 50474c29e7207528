"""`pip install ./python` into a fresh virtual environment with jax==0.10.2 from PyPI: the
package builds Kiln with CMake, JAX finds it through its entry point, the README's one-liner
runs on it, and the installed libraries are relocatable ($ORIGIN RPATHs, no build paths).
Slow (downloads jax and jaxlib once into pip's cache, builds Kiln): ctest label `slow`."""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import ROOT
from test_smoke import SMOKE

JAX_PINS = ["jax==0.10.2", "jaxlib==0.10.2"]


def _run(cmd, **kw):
    cp = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert cp.returncode == 0, f"{' '.join(cmd)}\n{cp.stdout[-3000:]}\n{cp.stderr[-3000:]}"
    return cp.stdout


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PJRT_", "KILN_", "PYTHON", "JAX_"))}
    env.update(extra)
    return env


def test_pip_install_fresh_venv():
    base = getattr(sys, "_base_executable", sys.executable)
    work = tempfile.mkdtemp(prefix="kiln-pip-")
    try:
        venv = os.path.join(work, "venv")
        _run([base, "-m", "venv", venv])
        py = os.path.join(venv, "bin", "python")
        env = _clean_env()
        cp = subprocess.run([py, "-m", "pip", "install", "-q", *JAX_PINS], capture_output=True,
                            text=True, env=env)
        if cp.returncode != 0 and ("Network" in cp.stderr or "connection" in cp.stderr.lower()):
            pytest.skip("PyPI is not reachable: " + cp.stderr.strip().splitlines()[-1])
        assert cp.returncode == 0, cp.stderr[-3000:]
        # the package: its own CMake build of this tree, in a temporary folder
        _run([py, "-m", "pip", "install", os.path.join(ROOT, "python")],
             env=dict(env, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get(
                 "CMAKE_BUILD_PARALLEL_LEVEL", str(min(os.cpu_count() or 1, 2)))))
        pkg = _run([py, "-c", "import jax_plugins.kiln as k, os; print(os.path.dirname(k.__file__))"],
                   env=env, cwd=work).strip()
        lib = os.path.join(pkg, "lib")
        for f in ["libkiln.so.0", "libkiln_pjrt.so", "kiln-plugins/libkiln-interp.so"]:
            assert os.path.isfile(os.path.join(lib, f)), f"{f} missing from {lib}: {os.listdir(lib)}"
        # relocatable: RUNPATHs are $ORIGIN-relative, no build-tree path inside
        if shutil.which("readelf"):
            for f in ["libkiln_pjrt.so", "kiln-plugins/libkiln-interp.so"]:
                dyn = _run(["readelf", "-d", os.path.join(lib, f)])
                paths = [l for l in dyn.splitlines() if "RUNPATH" in l or "RPATH" in l]
                assert paths and all("$ORIGIN" in l and ROOT not in l for l in paths), (f, paths)
        # the entry point JAX reads, and the one-liner, from a folder outside the tree
        eps = _run([py, "-c", "from importlib.metadata import entry_points; "
                    "print([e.value for e in entry_points(group='jax_plugins')])"], env=env)
        assert "jax_plugins.kiln" in eps, eps
        out = _run([py, "-c", SMOKE], env=dict(env, JAX_PLATFORMS="kiln"), cwd=work)
        lines = out.strip().splitlines()
        assert lines[0] == "[0 0 0 0]" and lines[-1] == "kiln", out
        # the CLI carried in the package
        out = _run([py, "-m", "jax_plugins.kiln", "devices"], env=env, cwd=work)
        assert "interp" in out, out
        # moved elsewhere, the package still loads its libraries ($ORIGIN)
        moved = os.path.join(work, "moved", "jax_plugins")
        shutil.copytree(os.path.dirname(pkg), moved, symlinks=True)
        shutil.rmtree(pkg)
        out = _run([py, "-c", SMOKE], env=dict(env, JAX_PLATFORMS="kiln",
                                               PYTHONPATH=os.path.dirname(moved)), cwd=work)
        assert out.strip().splitlines()[-1] == "kiln", out
    finally:
        shutil.rmtree(work, ignore_errors=True)

"""python -m jax_plugins.kiln ARGS...: the `kiln` CLI carried in the package, e.g. `devices`
(which backends were found, which can run here and why not) or `run FILE.mlir`."""
import os
import sys

from . import kiln_executable

exe = kiln_executable()
if not os.path.exists(exe):
    sys.exit(f"kiln: {exe} is missing (this is a source tree, not an installed package)")
os.execv(exe, [exe] + sys.argv[1:])

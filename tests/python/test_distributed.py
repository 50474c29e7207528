"""jax.distributed on Kiln: 2 processes of one Open MPI launch (mpirun), each with 1 and then
2 Kiln devices, run distributed_worker.py: shard_map with every collective, a data-parallel
training step, a Megatron-style MLP over a 2 x N/2 mesh, an uncommitted (host) input, pmap,
each against XLA:CPU (run whole on the process's CPU device), with the shardings JAX reads
back. Skipped without mpirun (tools/dev.sh installs Open MPI)."""
import os
import re
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("local_devices", [1, 2])
def test_two_processes(kiln_device, local_devices):
    mpirun = shutil.which("mpirun")
    if not mpirun:
        pytest.skip("no mpirun (Debian: openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               KILN_CPU_DEVICES=str(local_devices), KILN_COLLECTIVE_TIMEOUT_S="120")
    r = subprocess.run([mpirun, "--oversubscribe", "--tag-output", "-np", "2", "-x", "KILN_CPU_DEVICES", "-x", "KILN_PJRT_PLUGIN",
                        "-x", "KILN_COLLECTIVE_TIMEOUT_S", sys.executable, os.path.join(HERE, "distributed_worker.py")],
                       env=env, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-6000:]
    tagged = [re.match(r"\[\d+,(\d+)\]<stdout>:(.*)", line) for line in r.stdout.splitlines()]
    for rank in ("0", "1"):
        mine = [m.group(2) for m in tagged if m and m.group(1) == rank]
        assert "all ok" in mine and "case megatron_mlp ok" in mine and "case pmap_psum ok" in mine, out[-6000:]
        assert "case uncommitted_input ok" in mine, out[-6000:]

"""Sharded programs measured (issue 16): JAX programs over N devices of one process, on Kiln's
devices (through the PJRT plugin, KILN_CPU_DEVICES=N) and on XLA:CPU's (N host devices), in the
same process, the systems interleaved per round. With --processes P: P processes of one Open
MPI launch (the script starts `mpirun -np P` itself), N devices each, jax.distributed over
them: Kiln's collectives over MPI against XLA:CPU's over Gloo, in the same processes.

Started by bench/sharded.sh (bench/run --sharded), which sets up the pinned Python environment
and builds Kiln first:
    bench/sharded.sh [--kiln PATH] [--devices N] [--processes P] [--rounds N] [--iterations N]
                     [--only NAME,...]

Configurations (float32):
  allreduce_4k, allreduce_4m, allreduce_64m   jit(shard_map(psum)) of a per-device array of
                 4 KiB, 4 MiB and 64 MiB: an all-reduce and its dispatch, per call.
  dp_step        a data-parallel training step (MLP 784-1024-1024-10, global batch 512, SGD;
                 the batch split over the devices, the weights replicated): forward, gradients,
                 update, as research/spmd.md measured XLA:CPU.
  dp_transformer the same for a transformer block (4-head attention, layer norms, a 4x GELU
                 MLP; batch 16 x 64 tokens x 256 wide).
  tp_mlp         a tensor-parallel MLP (x @ W1 column-split, tanh, @ W2 row-split; batch 512,
                 1024 wide): a jit with NamedShardings.
  shmap_mlp      the same MLP written with shard_map and one psum.
Each figure is the median of --iterations calls (after a warm-up), the median of --rounds
rounds; results are checked against XLA:CPU's (2e-4 relative) before they are timed.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kiln", required=True, help="the kiln CLI of a build: its libkiln_pjrt.so beside it is used")
    ap.add_argument("--devices", type=int, default=2, help="devices per process")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--only", default="")
    return ap.parse_args()


ARGS = parse()
if ARGS.processes > 1 and "OMPI_COMM_WORLD_SIZE" not in os.environ:  # start the launch, then be one of it
    import shutil
    import subprocess
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("sharded.py: --processes needs Open MPI's mpirun (Debian: openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    sys.exit(subprocess.call([mpirun, "--oversubscribe", "-np", str(ARGS.processes), sys.executable] + sys.argv,
                             env=env))
os.environ["KILN_CPU_DEVICES"] = str(ARGS.devices)
os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + f" --xla_force_host_platform_device_count={ARGS.devices}"
os.environ["PJRT_NAMES_AND_LIBRARY_PATHS"] = "kiln:" + os.path.join(os.path.dirname(os.path.abspath(ARGS.kiln)),
                                                                     "libkiln_pjrt.so")
os.environ["JAX_PLATFORMS"] = "kiln,cpu"
os.environ.setdefault("KILN_CACHE_MAX_BYTES", "0")
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from functools import partial  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.experimental import multihost_utils  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import peers  # noqa: E402  (host_line)

if ARGS.processes > 1:
    jax.distributed.initialize()  # Open MPI's ranks; XLA:CPU's collectives then run over Gloo


def place(a, sharding):
    """Global host data laid out by sharding (in a launch: each process gives its blocks)."""
    return jax.make_array_from_callback(a.shape, sharding, lambda idx: a[idx])


def host(a):
    return np.asarray(multihost_utils.process_allgather(a, tiled=True) if ARGS.processes > 1 else a)


def configs(devs):
    """name -> (jitted function, arguments placed on devs)."""
    n = len(devs)
    mesh = Mesh(np.array(devs), ("d",))
    rng = np.random.default_rng(0)
    out = {}
    for name, count in (("allreduce_4k", 1 << 10), ("allreduce_4m", 1 << 20), ("allreduce_64m", 1 << 24)):
        x = place(rng.standard_normal(n * count).astype(np.float32), NamedSharding(mesh, P("d")))
        f = jax.jit(jax.shard_map(lambda v: jax.lax.psum(v, "d"), mesh=mesh, in_specs=P("d"), out_specs=P("d")))
        out[name] = (f, (x,))

    def init(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)

    rep, bat = NamedSharding(mesh, P()), NamedSharding(mesh, P("d"))
    params = [place(a, rep) for a in (init(784, 1024), init(1024, 1024), init(1024, 10))]
    x = place(rng.standard_normal((512, 784)).astype(np.float32), bat)
    y = place(rng.standard_normal((512, 10)).astype(np.float32), bat)

    def loss(ps, x, y):
        h = jnp.tanh(x @ ps[0])
        h = jnp.tanh(h @ ps[1])
        return jnp.mean((h @ ps[2] - y) ** 2)

    @jax.jit
    def dp_step(ps, x, y):
        g = jax.grad(loss)(ps, x, y)
        return [p - 0.01 * d for p, d in zip(ps, g)]

    out["dp_step"] = (dp_step, (params, x, y))

    # a transformer block (attention with 4 heads, layer norms, a 4x MLP), batch 16 x 64
    # tokens x 256 wide split over the devices, SGD on every weight
    d, heads = 256, 4
    tparams = [place(a, rep) for a in (init(d, 3 * d), init(d, d), init(d, 4 * d), init(4 * d, d))]
    tx = place(rng.standard_normal((16, 64, d)).astype(np.float32), bat)
    ty = place(rng.standard_normal((16, 64, d)).astype(np.float32), bat)

    def norm(h):
        m = h.mean(-1, keepdims=True)
        return (h - m) * jax.lax.rsqrt(((h - m) ** 2).mean(-1, keepdims=True) + 1e-5)

    def block(ps, h):
        qkv = norm(h) @ ps[0]
        q, k, v = (a.reshape(*h.shape[:2], heads, d // heads) for a in jnp.split(qkv, 3, axis=-1))
        att = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(d // heads), axis=-1)
        h = h + jnp.einsum("bhqk,bkhd->bqhd", att, v).reshape(h.shape) @ ps[1]
        return h + jax.nn.gelu(norm(h) @ ps[2]) @ ps[3]

    @jax.jit
    def dp_transformer(ps, x, y):
        g = jax.grad(lambda ps: jnp.mean((block(ps, x) - y) ** 2))(ps)
        return [p - 0.01 * d for p, d in zip(ps, g)]

    out["dp_transformer"] = (dp_transformer, (tparams, tx, ty))

    xs = place(rng.standard_normal((512, 1024)).astype(np.float32), rep)
    w1 = place(init(1024, 1024), NamedSharding(mesh, P(None, "d")))
    w2 = place(init(1024, 1024), NamedSharding(mesh, P("d", None)))
    out["tp_mlp"] = (jax.jit(lambda x, a, b: jnp.tanh(x @ a) @ b, out_shardings=rep), (xs, w1, w2))
    body = jax.shard_map(lambda x, a, b: jax.lax.psum(jnp.tanh(x @ a) @ b, "d"), mesh=mesh,
                         in_specs=(P(), P(None, "d"), P("d", None)), out_specs=P(), check_vma=False)
    out["shmap_mlp"] = (jax.jit(body), (xs, w1, w2))
    return out


def timed(f, args, iterations):
    jax.block_until_ready(f(*args))
    ts = []
    for _ in range(iterations):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main():
    n = ARGS.devices * ARGS.processes
    kiln, cpu = jax.devices("kiln")[:n], jax.devices("cpu")[:n]
    systems = {"kiln": configs(kiln), "xla": configs(cpu)}
    names = [n for n in systems["xla"] if not ARGS.only or n in ARGS.only.split(",")]
    for name in names:  # check before timing
        got = jax.tree.leaves(systems["kiln"][name][0](*systems["kiln"][name][1]))
        want = jax.tree.leaves(systems["xla"][name][0](*systems["xla"][name][1]))
        for g, w in zip(got, want):
            np.testing.assert_allclose(host(g), host(w), rtol=2e-4, atol=2e-4, err_msg=name)
    times = {(s, n): [] for s in systems for n in names}
    for _ in range(ARGS.rounds):
        for name in names:
            for s in systems:
                f, args = systems[s][name]
                times[(s, name)].append(timed(f, args, ARGS.iterations))
    if jax.process_index() != 0:
        return
    print(peers.host_line(ARGS.kiln))
    where = (f"{ARGS.devices} devices in each of {ARGS.processes} processes (Kiln: MPI; XLA:CPU: Gloo)"
             if ARGS.processes > 1 else f"{ARGS.devices} devices in one process")
    print(f"{where}; medians of {ARGS.rounds} rounds x {ARGS.iterations} calls")
    print(f"| program | Kiln | XLA:CPU | Kiln / XLA |\n| --- | ---: | ---: | ---: |")
    for name in names:
        k, x = statistics.median(times[("kiln", name)]), statistics.median(times[("xla", name)])
        print(f"| {name} | {k * 1e3:.3f} ms | {x * 1e3:.3f} ms | {k / x:.2f} |")


if __name__ == "__main__":
    main()

"""Runs the model zoo (zoo.py) on Kiln, XLA:CPU and IREE, side by side, and prints one table.

Started by bench/run, which sets up the pinned Python environment and builds Kiln first:
    bench/run [--quick] [--kiln PATH] [--only NAME,...] [--load N] [--write-results]

For every model: each system runs in its own process; its results are checked against the
reference outputs JAX wrote at export time (a disagreement is a failure, and the exit status
says so); the table gives compile time, median, p99 and first-call run time and peak memory,
and for the peers the ratio Kiln/peer of each but the first call (above 1: Kiln is slower or
bigger).

What is measured, the same way for all three where the systems allow it:
  compile   Kiln: `kiln bench`'s compile line (parse+verify+compile); XLA:CPU: Lowered.compile()
            of the jitted original JAX function (tracing and lowering excluded); IREE: the wall
            time of `iree-compile` on the same model.mlir (llvm-cpu, this host's CPU).
  run       median wall time of one call on inputs already on the device, outputs ready (XLA:
            block_until_ready; IREE: synchronous invoke), after one warm-up call; p99 is the
            nearest-rank 99th percentile of the same timed calls (the ceil(0.99 n)-th fastest:
            the slowest when there are fewer than 100); as many timed calls as fit in the
            target time, 3 to 1000. Kiln: `kiln bench`'s run line (its own median and p99, the
            same definitions, over as many timed runs, counted from a short `kiln bench`
            before it).
  first     the first call after compiling, timed alone (the cold start: the runs above come
            after it). Kiln: `kiln bench`'s first run (with --warmup 1, its warm-up run).
  peak mem  the peak resident memory the model adds to its process: VmHWM (reset through
            /proc/self/clear_refs after the runtime is imported) minus VmRSS at that point, so
            inputs, compilation and execution count and the Python runtime itself does not.
            IREE compiles in another process (iree-compile): its figure is the runtime's only.
            Kiln: `kiln bench`'s peak memory (the whole process's) less the peak RSS of
            `kiln run` on a one-op program on the same device (the CLI and its plugin loaded).
JAX on Kiln (PJRT): the XLA:CPU worker's steps with JAX_PLATFORMS=kiln, through this build's
libkiln_pjrt.so (beside the kiln executable, or --pjrt): Lowered.compile() (Kiln's compile
through PJRT), the same timed calls and the same peak-memory reading, with KILN_CPU_TIER=optimized
(JAX cannot see when the background compile of the default tiered mode is done, so its timed
calls would mix the tiers; `kiln bench` waits for the switch; bench/tiers.sh measures the
default settings' first results). The dispatch line: a
jitted one-op function called in a loop, per-call median on Kiln and on XLA:CPU in one process.
The JAX-on-Kiln line: in the JAX-on-Kiln process, turn by turn, each model's JAX call against
Kiln's C API running the same program plus JAX's own cost of a call of the model's signature
(side_by_side, jax_on_kiln_line): what the plugin adds per call.
A Kiln that has no `kiln bench` yet, or a Kiln run slower than SLOW_RUN_S, is measured by
timing whole `kiln run` processes (parse, compile, run, .npy I/O) and their peak RSS (read
through GNU time) less the same baseline; such figures are marked * in the table.
kiln_measure() is the one function that knows how Kiln is measured.
--load N: N busy processes (a Python loop each, BusyLoad) run on the machine from the first
system measured to the last, the same for every system, and the table's header line says so;
they end with this process (a finally, SIGTERM and SIGHUP handlers), and by themselves when
their parent is gone or after LOAD_MAX_S.
"""
import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

SMALL_TIMEOUT = 120
LARGE_TIMEOUT = 300
KILN_INTERP_LARGE_TIMEOUT = 100  # the reference interpreter on a throughput-sized model
SLOW_RUN_S = 5                   # a Kiln run slower than this is timed once, by `kiln run`
LOAD_MAX_S = 4 * 3600            # a --load process ends by itself after this long at the latest


# ------------------------------------------------------------------ helpers shared by workers

def _status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak():
    """Resets VmHWM to the current RSS (Linux >= 4.0) and returns the current RSS in bytes."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status_kb("VmRSS") * 1024


def peak_since(base):
    return _status_kb("VmHWM") * 1024 - base


def p99(times):
    """The nearest-rank 99th percentile: the ceil(0.99 n)-th smallest of the n times (the
    greatest when n < 100), as `kiln bench` reports it."""
    s = sorted(times)
    return s[min(len(s), max(1, -(-99 * len(s) // 100))) - 1]


def time_first(call):
    """Calls call() once; returns (its result, its wall time in seconds)."""
    t = time.perf_counter()
    out = call()
    return out, time.perf_counter() - t


def time_calls(call, min_runs, target_s, max_runs):
    """Warm-up call, then at least min_runs timed calls, more until target_s seconds are spent."""
    t = time.perf_counter()
    call()
    first = time.perf_counter() - t
    runs = max(min_runs, min(max_runs, int(target_s / max(first, 1e-6))))
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return times


def load_inputs(model_dir):
    import numpy as np
    import ml_dtypes  # noqa: F401
    n = len([f for f in os.listdir(model_dir) if f.startswith("input_")])
    return [np.load(os.path.join(model_dir, f"input_{i}.npy")) for i in range(n)]


def worker_xla(model_dir, out_dir, target_s, platform="cpu"):
    """XLA:CPU, or (platform "kiln") JAX on Kiln through the PJRT plugin: the same steps."""
    import jax
    import numpy as np
    import zoo
    jax.config.update("jax_platforms", platform)  # after zoo, which sets "cpu" for its exports
    meta = json.load(open(os.path.join(model_dir, "meta.json")))
    flat_fn, _, _ = zoo.build(meta["kind"], meta["size"], meta["dtype"], abstract=True)
    jax.block_until_ready(jax.device_put(np.zeros(1)))  # the client exists before the reset
    base = reset_peak()
    inputs = [jax.device_put(a) for a in load_inputs(model_dir)]
    jax.block_until_ready(inputs)
    t = time.perf_counter()
    lowered = jax.jit(flat_fn).lower(*inputs)
    lower_s = time.perf_counter() - t
    dump = os.environ.get("KILN_PJRT_DUMP_DIR")  # JAX on Kiln: the artifacts the plugin gets
    before = set(os.listdir(dump)) if dump else set()
    t = time.perf_counter()
    compiled = lowered.compile()
    compile_s = time.perf_counter() - t
    sent = sorted(set(os.listdir(dump)) - before) if dump else []
    outs, first_s = time_first(lambda: jax.block_until_ready(compiled(*inputs)))
    times = time_calls(lambda: jax.block_until_ready(compiled(*inputs)), 3, target_s, 1000)
    peak = peak_since(base)
    for i, o in enumerate(outs):
        zoo.save_npy(os.path.join(out_dir, f"result_{i}.npy"), np.asarray(o))
    r = {"compile_s": compile_s, "lower_s": lower_s, "times": times, "first_s": first_s,
         "peak": peak}
    if platform == "kiln" and len(sent) == 1:
        artifact = open(os.path.join(dump, sent[0]), "rb").read()
        r["side_by_side"] = side_by_side(artifact, compiled, inputs, outs, min(target_s, 2.0))
    return r


def side_by_side(artifact, compiled, inputs, outs, target_s):
    """JAX on Kiln against Kiln itself, in this one process, turn by turn (this host's
    process-to-process noise is up to 2x, so no other process is the reference): the jitted
    model; the same program (the artifact the plugin received: JAX's text still holds chlo
    ops it legalizes before sending) run by Kiln's C API on the inputs' host copies
    (kiln_capi, sharing the plugin's libkiln and thread pool); and JAX's own cost of a call of
    this signature, a jitted function taking the same arguments (kept, not pruned) and
    returning zeros of the results' shapes. Medians in seconds of each."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    import kiln_capi
    shapes = [(o.shape, o.dtype) for o in outs]
    null = jax.jit(lambda *a: tuple(jnp.zeros(s, d) for s, d in shapes), keep_unused=True)
    pjrt = os.environ["PJRT_NAMES_AND_LIBRARY_PATHS"].split(":", 1)[1]
    runner = kiln_capi.Runner(kiln_capi.library_beside(pjrt), artifact,
                              [np.asarray(a) for a in inputs], len(outs))
    calls = {"jax": lambda: jax.block_until_ready(compiled(*inputs)), "capi": runner.run,
             "null": lambda: jax.block_until_ready(null(*inputs))}
    times = {k: [] for k in calls}
    try:
        for f in calls.values():
            f()
        start = time.perf_counter()
        while len(times["jax"]) < 20 or (time.perf_counter() - start < target_s
                                         and len(times["jax"]) < 2000):
            for k, f in calls.items():
                t = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t)
    finally:
        runner.close()
    return {k + "_s": statistics.median(v) for k, v in times.items()}


def worker_iree(model_dir, out_dir, target_s, iree_compile):
    import numpy as np
    import iree.runtime as rt
    import zoo
    vmfb = os.path.join(out_dir, "model.vmfb")
    t = time.perf_counter()
    cp = subprocess.run([iree_compile, "--iree-hal-target-backends=llvm-cpu",
                         "--iree-llvmcpu-target-cpu=host", os.path.join(model_dir, "model.mlir"),
                         "-o", vmfb], capture_output=True, text=True)
    compile_s = time.perf_counter() - t
    if cp.returncode != 0:
        raise RuntimeError("iree-compile failed: " + cp.stderr.strip()[-2000:])
    compile_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    config = rt.Config("local-task")
    base = reset_peak()
    inputs = load_inputs(model_dir)
    vm = rt.VmModule.mmap(config.vm_instance, vmfb)
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(vm)
    fn = ctx.modules[vm.name]["main"]
    dev = [rt.asdevicearray(config.device, a) for a in inputs]
    outs, first_s = time_first(lambda: fn(*dev))
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    host = [o.to_host() for o in outs]
    times = time_calls(lambda: fn(*dev), 3, target_s, 1000)
    peak = peak_since(base)
    for i, o in enumerate(host):
        zoo.save_npy(os.path.join(out_dir, f"result_{i}.npy"), np.asarray(o))
    return {"compile_s": compile_s, "times": times, "first_s": first_s, "peak": peak,
            "compile_rss": compile_rss}


def worker_dispatch(target_s):
    """Dispatch cost through JAX: a jitted one-op function (x + 1 on f32[8], inputs already on
    the device) called in a loop, each call waited for, on Kiln (PJRT) and on XLA:CPU in the
    same process; the median and p99 per-call time of each."""
    import jax
    import numpy as np
    jax.config.update("jax_platforms", "kiln,cpu")
    f = jax.jit(lambda x: x + 1)
    r = {}
    for platform in ("kiln", "cpu"):
        x = jax.device_put(np.ones(8, np.float32), jax.devices(platform)[0])
        times = time_calls(lambda: f(x).block_until_ready(), 1000, target_s, 200000)
        r[platform] = {"times": times}
    return r


def worker_main(argv):
    system, model_dir, out_dir, target_s = argv[0], argv[1], argv[2], float(argv[3])
    try:
        if system == "xla":
            r = worker_xla(model_dir, out_dir, target_s)
        elif system == "jaxkiln":
            r = worker_xla(model_dir, out_dir, target_s, platform="kiln")
        elif system == "dispatch":
            r = worker_dispatch(target_s)
        else:
            r = worker_iree(model_dir, out_dir, target_s, argv[4])
    except Exception as e:  # reported in the table
        r = {"error": f"{type(e).__name__}: {e}"}
    with open(os.path.join(out_dir, "measure.json"), "w") as f:
        json.dump(r, f)
    return 0


# ------------------------------------------------------------------ the parent: Kiln

def run_child(cmd, timeout):
    """Runs cmd; returns (rc or None on timeout, wall seconds, ru_maxrss bytes, stdout, stderr)."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, time.perf_counter() - t, 0, out, err
    return p.returncode, time.perf_counter() - t, 0, out, err


GNU_TIME = "/usr/bin/time"


def run_child_rss(cmd, timeout):
    """Like run_child, with the child's own peak RSS in bytes (0 when unknown). It is read
    through GNU time, which forks the child from a small process: a child forked straight from
    this Python process would report this process's RSS as its maxrss (Linux keeps the peak of
    the memory image an exec replaces)."""
    rss_file = None
    if os.access(GNU_TIME, os.X_OK):
        fd, rss_file = tempfile.mkstemp(prefix="kiln-rss-")
        os.close(fd)
        cmd = [GNU_TIME, "-f", "%M", "-o", rss_file, *cmd]
    try:
        rc, wall, _, out, err = run_child(cmd, timeout)
        rss = 0
        if rss_file and rc is not None:
            try:
                rss = int(open(rss_file).read().split()[-1]) * 1024
            except (OSError, ValueError, IndexError):
                rss = 0
        return rc, wall, rss, out, err
    finally:
        if rss_file:
            os.unlink(rss_file)


_kiln_bench_ok = {}
_kiln_bench_warmup = {}
_kiln_base_rss = {}


def kiln_has_bench(kiln):
    if kiln not in _kiln_bench_ok:
        rc, _, _, out, _ = run_child([kiln, "bench", "--help"], 30)
        _kiln_bench_ok[kiln] = rc == 0 and "Not available yet" not in out
        _kiln_bench_warmup[kiln] = "--warmup" in out
    return _kiln_bench_ok[kiln]


def kiln_device_used(kiln, devices):
    """The device `--device devices` picks here, or None with the reason."""
    rc, _, _, out, err = run_child([kiln, "devices", "--device", devices], 30)
    m = re.search(r"uses (\w+):", out)
    if rc == 0 and m:
        return m.group(1), None
    return None, (err or out).strip().splitlines()[-1] if (err or out).strip() else "no device"


TRIVIAL_MLIR = """func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %x : tensor<f32>
  return %0 : tensor<f32>
}
"""


def kiln_base_rss(kiln, devices):
    """Peak RSS of Kiln running a one-op program on `devices`: the CLI with that device's plugin
    loaded, as the peers' baseline is their runtime once imported (0 if unknown)."""
    key = (kiln, devices)
    if key not in _kiln_base_rss:
        import numpy as np
        d = tempfile.mkdtemp(prefix="kiln-base-")
        with open(os.path.join(d, "trivial.mlir"), "w") as f:
            f.write(TRIVIAL_MLIR)
        np.save(os.path.join(d, "x.npy"), np.float32(1))
        rc, _, rss, _, _ = run_child_rss([kiln, "run", os.path.join(d, "trivial.mlir"), "--input",
                                          os.path.join(d, "x.npy"), "--device", devices], 60)
        shutil.rmtree(d, ignore_errors=True)
        _kiln_base_rss[key] = rss if rc == 0 else 0
    return _kiln_base_rss[key]


def kiln_inputs(model_dir):
    n = len([f for f in os.listdir(model_dir) if f.startswith("input_")])
    args = []
    for i in range(n):
        args += ["--input", os.path.join(model_dir, f"input_{i}.npy")]
    return args


def kiln_measure(kiln, devices, model_dir, out_dir, target_s, timeout):
    """Kiln's figures for one model on one device list: the results (written to out_dir) come
    from `kiln run`; compile time, run times and peak memory from `kiln bench` when this Kiln
    has it, else from timing whole `kiln run` processes (marked estimate=True)."""
    mlir = os.path.join(model_dir, "model.mlir")
    run_cmd = [kiln, "run", mlir, *kiln_inputs(model_dir), "--device", devices,
               "--output-dir", out_dir]
    rc, wall, rss, out, err = run_child_rss(run_cmd, timeout)
    if rc is None:
        return {"error": f"timeout after {timeout} s", "timeout": True}
    if rc != 0:
        return {"error": "kiln run failed: " + (err or out).strip()[-600:]}
    if kiln_has_bench(kiln) and wall <= SLOW_RUN_S:
        warm = ["--warmup", "1"] if _kiln_bench_warmup[kiln] else []
        # as many timed runs as XLA:CPU's (time_calls: target_s worth, 3 to 1000), from one
        # run's time: a short `kiln bench` first (wall is a whole process, compile
        # included, far more than a run of a small model)
        one = wall
        rc, _, _, bout, _ = run_child([kiln, "bench", mlir, "--device", devices, "--iterations", "3", *warm,
                                       *kiln_inputs(model_dir)], timeout + 10 * wall)
        m = re.search(r"run:\s*median\s*([\d.]+)\s*us", bout) if rc == 0 else None
        if m:
            one = float(m.group(1)) / 1e6
        iters = max(3, min(1000, int(target_s / max(one, 1e-6))))
        rc, _, _, bout, berr = run_child(
            [kiln, "bench", mlir, "--device", devices, "--iterations", str(iters), *warm,
             *kiln_inputs(model_dir)], timeout + 10 * (iters + 3) * wall)
        if rc != 0:
            return {"error": "kiln bench failed: " + (berr or bout).strip()[-600:]}
        c = re.search(r"compile:\s*([\d.]+)\s*ms", bout)
        # p99 and the first run: absent from the run line of a Kiln older than both
        r = re.search(r"run:\s*median\s*([\d.]+)\s*us\s*\(min\s*([\d.]+),(?:\s*p99\s*([\d.]+),)?"
                      r"\s*max\s*([\d.]+)\)\s*over\s*(\d+)\s*runs(?:;\s*first run\s*([\d.]+)\s*us)?",
                      bout)
        p = re.search(r"peak memory:\s*(\d+)\s*bytes", bout)
        if not (c and r and p):
            return {"error": "cannot read kiln bench's output: " + bout.strip()[-300:]}
        # kiln bench's peak is the whole process's; less that of a process that loaded the
        # plugins and ran nothing, it counts what the peers' figures count
        base = kiln_base_rss(kiln, devices)
        us = lambda g: float(r.group(g)) / 1e6 if r.group(g) is not None else None  # noqa: E731
        return {"compile_s": float(c.group(1)) / 1e3, "median_s": us(1), "min_s": us(2),
                "p99_s": us(3), "max_s": us(4), "runs": int(r.group(5)), "first_s": us(6),
                "peak": int(p.group(1)) - base, "estimate": False}
    # fallback: whole processes (parse + run + .npy I/O), as many as fit in target_s
    base = kiln_base_rss(kiln, devices)
    times, peaks = [wall], [rss]
    runs = max(0, min(20, int(target_s / max(wall, 1e-4)) - 1))
    if wall > SLOW_RUN_S:
        runs = 0
    for _ in range(runs):
        rc, w, r, _, _ = run_child_rss(run_cmd, timeout)
        if rc != 0:
            break
        times.append(w)
        peaks.append(r)
    peak = max(peaks) - base if min(peaks) and base else None
    return {"compile_s": None, "times": times, "first_s": wall, "peak": peak,
            "estimate": True}


# ------------------------------------------------------------------ background load

LOAD_CODE = """
import os, sys, time
parent, deadline = int(sys.argv[1]), time.monotonic() + float(sys.argv[2])
n = 0
try:
    while True:
        n += 1
        if n % 200000 == 0 and (os.getppid() != parent or time.monotonic() > deadline):
            break
except KeyboardInterrupt:
    pass
"""


class BusyLoad:
    """n busy processes (a Python loop each) while measuring, for --load. Each ends by itself
    when this process is gone (its parent pid changes) or after max_s; stop() ends them."""

    def __init__(self, n, max_s=LOAD_MAX_S):
        self.procs = []
        for _ in range(n):
            self.procs.append(subprocess.Popen(
                [sys.executable, "-c", LOAD_CODE, str(os.getpid()), str(max_s)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = []


def _exit_on_signal(signum, _frame):
    """SIGTERM or SIGHUP: exit through the finally blocks (which stop the --load processes)."""
    raise SystemExit(128 + signum)


# ------------------------------------------------------------------ checking and the table

def check_outputs(model_dir, out_dir, meta):
    import numpy as np
    import ml_dtypes  # noqa: F401
    n = len([f for f in os.listdir(model_dir) if f.startswith("expected_")])
    worst = 0.0
    for i in range(n):
        ref = np.load(os.path.join(model_dir, f"expected_{i}.npy"))
        path = os.path.join(out_dir, f"result_{i}.npy")
        if not os.path.exists(path):
            return False, f"result {i} missing"
        got = np.load(path)
        if got.shape != ref.shape:
            return False, f"result {i}: shape {got.shape}, expected {ref.shape}"
        if ref.dtype.kind in "iub":
            bad = int(np.sum(got != ref))
            if bad:
                return False, f"result {i}: {bad} of {ref.size} integers differ"
            continue
        r = ref.astype(np.float64)
        g = got.astype(np.float64)
        if not np.all(np.isfinite(g) == np.isfinite(r)):
            return False, f"result {i}: non-finite values differ"
        scale = float(np.max(np.abs(r[np.isfinite(r)]), initial=0.0))
        err = float(np.max(np.abs(np.where(np.isfinite(r), g - r, 0.0)), initial=0.0))
        tol = meta["atol"] + meta["rtol"] * scale
        worst = max(worst, err / tol if tol else 0.0)
        if err > tol:
            return False, f"result {i}: max error {err:.3g} > tolerance {tol:.3g}"
    return True, f"worst error {worst:.2f} of tolerance"


def fmt_time(s):
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.0f} us" if s < 1e-4 else f"{s * 1e6:.0f} us"
    if s < 1:
        return f"{s * 1e3:.2f} ms" if s < 1e-2 else f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def fmt_bytes(b):
    if b is None:
        return "-"
    if b < 1 << 20:
        return f"{b / 1024:.0f} KiB"
    return f"{b / (1 << 20):.1f} MiB"


def fmt_ratio(a, b):
    if a is None or b is None or b <= 0 or a <= 0:
        return "-"
    r = a / b
    return f"{r:.2f}" if r < 100 else f"{r:.0f}"


def measure_peer(system, model_dir, work, target_s, timeout, iree_compile, pjrt=None):
    os.makedirs(work, exist_ok=True)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", system, model_dir, work,
           str(target_s), iree_compile or ""]
    env = dict(os.environ, PYTHONPATH=HERE)
    if pjrt:  # JAX on Kiln: this build's plugin, and the kiln-jax package's Python side
        env["PJRT_NAMES_AND_LIBRARY_PATHS"] = "kiln:" + pjrt
        env["PYTHONPATH"] = os.pathsep.join([HERE, os.path.join(ROOT, "python")])
        env["KILN_CPU_TIER"] = "optimized"  # the compiled code from the first call (module doc)
        env["KILN_PJRT_DUMP_DIR"] = os.path.join(work, "sent")  # for side_by_side
        os.makedirs(env["KILN_PJRT_DUMP_DIR"], exist_ok=True)
    try:
        cp = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    path = os.path.join(work, "measure.json")
    if not os.path.exists(path):
        return {"error": f"worker died (rc {cp.returncode}): " + cp.stderr.strip()[-600:]}
    return json.load(open(path))


def summarise(r):
    """Adds median_s/p99_s/min_s/max_s/runs from times."""
    if "times" in r and r["times"]:
        r["median_s"] = statistics.median(r["times"])
        r["p99_s"] = p99(r["times"])
        r["min_s"], r["max_s"], r["runs"] = min(r["times"]), max(r["times"]), len(r["times"])
    return r


def versions():
    import jax
    import jaxlib
    import numpy
    import ml_dtypes
    from importlib.metadata import version
    return {"jax": jax.__version__, "jaxlib": jaxlib.__version__,
            "iree-base-compiler": version("iree-base-compiler"),
            "iree-base-runtime": version("iree-base-runtime"),
            "numpy": numpy.__version__, "ml_dtypes": ml_dtypes.__version__,
            "python": platform.python_version()}


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def host_line(kiln):
    """The CPU, its cores and ISA (avx512f or not), and the ISA Kiln's cpu device uses."""
    flags = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                flags = line
                break
    except OSError:
        pass
    isa = "avx512f" if " avx512f" in flags else "avx2 (no avx512f)" if " avx2" in flags else "no avx2"
    rc, _, _, out, _ = run_child([kiln, "devices"], 30)
    m = re.search(r"ISA \S+", out) if rc == 0 else None
    cap = os.environ.get("KILN_CPU_ISA")
    xla_flags = os.environ.get("XLA_FLAGS")  # e.g. --xla_cpu_max_isa=AVX2, XLA:CPU's own cap
    return (f"{cpu_name()}, {os.cpu_count()} cores; lscpu flags: {isa}"
            + (f"; Kiln's cpu device: {m.group(0)}" if m else "")
            + (f"; KILN_CPU_ISA={cap}" if cap else "")
            + (f"; XLA_FLAGS={xla_flags}" if xla_flags else ""))


def kiln_version(kiln):
    """`kiln --version`, and the commit of the source tree when the binary is its build/."""
    try:
        v = subprocess.run([kiln, "--version"], capture_output=True, text=True,
                           timeout=30).stdout.strip() or "kiln"
    except (OSError, subprocess.SubprocessError):
        v = "kiln"
    if os.path.dirname(os.path.abspath(kiln)) == os.path.join(ROOT, "build"):
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "-uno"],
                               capture_output=True, text=True).stdout.strip()
        if head:
            v += f" (build/ of {head}{' with local changes' if dirty else ''})"
    else:
        v += f" ({kiln})"
    return v


def main(argv):
    ap = argparse.ArgumentParser(description="Kiln vs XLA:CPU vs IREE on the model zoo")
    ap.add_argument("--kiln", required=True, help="the kiln executable")
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--zoo", default=os.path.join(HERE, "zoo"))
    ap.add_argument("--kiln-devices", default="cpu,interp",
                    help="Kiln's main device list (default cpu,interp: the first that works here)")
    ap.add_argument("--systems", default="kiln,interp,jaxkiln,xla,iree,dispatch",
                    help="which to run, of kiln (the main device list), interp, jaxkiln (JAX "
                    "on Kiln through libkiln_pjrt.so), xla, iree, dispatch (JAX's per-call "
                    "time on Kiln and XLA:CPU)")
    ap.add_argument("--pjrt", default="", help="libkiln_pjrt.so for jaxkiln (default: beside "
                    "the kiln executable)")
    ap.add_argument("--target", type=float, default=None,
                    help="seconds of timed runs per model and system")
    ap.add_argument("--write-results", action="store_true",
                    help="replace the '## Peers' section of bench/RESULTS.md")
    ap.add_argument("--json", default="", help="also write every measurement here")
    ap.add_argument("--load", type=int, default=0, metavar="N",
                    help="run N busy processes (a Python loop each) on the machine while every "
                    "system is measured; the table's header line says so")
    args = ap.parse_args(argv)
    if args.load < 0:
        ap.error("--load takes a number of processes, 0 or more")

    import zoo
    t_start = time.perf_counter()
    sizes = ["small"] if args.quick else ["small", "large"]
    only = set(filter(None, args.only.split(",")))
    models = [m for m in zoo.all_models(sizes) if not only or zoo.model_name(*m) in only]
    iree_compile = shutil.which("iree-compile") or os.path.join(os.path.dirname(sys.executable),
                                                                "iree-compile")

    # 1. the zoo, regenerated when the generator, the versions or a model changed
    stamp_key = json.dumps([open(os.path.join(HERE, "zoo.py")).read(), versions()])
    missing = []
    for kind, size, dtype in models:
        d = os.path.join(args.zoo, zoo.model_name(kind, size, dtype))
        try:
            ok = open(os.path.join(d, ".stamp")).read() == stamp_key
        except OSError:
            ok = False
        if not ok:
            missing.append((kind, size, dtype))
    t = time.perf_counter()
    for kind, size, dtype in missing:
        name = zoo.export_model(kind, size, dtype, args.zoo)
        with open(os.path.join(args.zoo, name, ".stamp"), "w") as f:
            f.write(stamp_key)
        print(f"exported {name}", file=sys.stderr, flush=True)
    gen_s = time.perf_counter() - t

    # 2. Kiln's devices
    kiln = os.path.abspath(args.kiln)
    used, why = kiln_device_used(kiln, args.kiln_devices)
    kiln_main = f"kiln {args.kiln_devices}" + (f" ({used})" if used and used != args.kiln_devices
                                                else "")
    chosen = set(args.systems.split(","))
    interp_ok = "interp" in chosen and kiln_device_used(kiln, "interp")[0] == "interp"
    has_bench = kiln_has_bench(kiln)
    pjrt = os.path.abspath(args.pjrt) if args.pjrt else os.path.join(os.path.dirname(kiln),
                                                                      "libkiln_pjrt.so")
    pjrt = pjrt if os.path.isfile(pjrt) else None

    # 3. measure, under --load's busy processes when asked
    rows = []
    failures = []
    unfinished = []
    work_root = tempfile.mkdtemp(prefix="kiln-peers-")
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _exit_on_signal)
    load = BusyLoad(args.load)
    try:
        dispatch_line = measure_all(args, models, kiln, kiln_main, used, why, chosen, interp_ok,
                                    pjrt, iree_compile, work_root, rows, failures, unfinished)
    finally:
        load.stop()
        shutil.rmtree(work_root, ignore_errors=True)
    total_s = time.perf_counter() - t_start
    return report(args, rows, failures, unfinished, dispatch_line, kiln, used, why, chosen,
                  has_bench, total_s, gen_s)


def measure_all(args, models, kiln, kiln_main, used, why, chosen, interp_ok, pjrt, iree_compile,
                work_root, rows, failures, unfinished):
    """Every model on every chosen system, appended to rows (failures, unfinished: what went
    wrong); then the dispatch line (returned; None when not asked for)."""
    import zoo
    for kind, size, dtype in models:
        name = zoo.model_name(kind, size, dtype)
        mdir = os.path.join(args.zoo, name)
        meta = json.load(open(os.path.join(mdir, "meta.json")))
        target = args.target if args.target is not None else (0.5 if size == "small" else 1.5)
        timeout = SMALL_TIMEOUT if size == "small" else LARGE_TIMEOUT
        systems = []
        if "kiln" not in chosen:
            pass
        elif used:
            ktimeout = timeout if used != "interp" or size == "small" else KILN_INTERP_LARGE_TIMEOUT
            systems.append((kiln_main, lambda w, d=args.kiln_devices, kt=ktimeout:
                            kiln_measure(kiln, d, mdir, w, target, kt)))
        else:
            systems.append((f"kiln {args.kiln_devices}", lambda w: {"error": why}))
        if interp_ok and size == "small" and used != "interp":
            systems.append(("kiln interp", lambda w: kiln_measure(kiln, "interp", mdir, w, target,
                                                                  timeout)))
        if "jaxkiln" in chosen:
            systems.append(("JAX on Kiln (PJRT)", lambda w: measure_peer(
                "jaxkiln", mdir, w, target, timeout, None, pjrt) if pjrt else
                {"error": f"no libkiln_pjrt.so beside {kiln} (--pjrt)"}))
        if "xla" in chosen:
            systems.append(("XLA:CPU", lambda w: measure_peer("xla", mdir, w, target, timeout,
                                                              None)))
        if "iree" in chosen:
            systems.append(("IREE", lambda w: measure_peer("iree", mdir, w, target, timeout,
                                                           iree_compile)))
        results = {}
        for sysname, fn in systems:
            w = os.path.join(work_root, name, re.sub(r"\W+", "_", sysname))
            os.makedirs(w, exist_ok=True)
            t = time.perf_counter()
            r = summarise(fn(w))
            r["wall_s"] = time.perf_counter() - t
            if "error" not in r:
                r["ok"], r["check"] = check_outputs(mdir, w, meta)
                if not r["ok"]:
                    failures.append(f"{name} on {sysname}: {r['check']}")
            elif r.get("timeout") and sysname.startswith("kiln") and used == "interp":
                unfinished.append(f"{name} on {sysname}: {r['error']} (the reference "
                                  "interpreter is not meant for throughput sizes)")
            else:
                failures.append(f"{name} on {sysname}: {r['error']}")
            results[sysname] = r
            print(f"{name:24s} {sysname:22s} "
                  + (r["error"][:100] if "error" in r else
                     f"{'ok' if r['ok'] else 'FAIL'}  run {fmt_time(r['median_s'])}  "
                     f"p99 {fmt_time(r.get('p99_s'))}  first {fmt_time(r.get('first_s'))}  "
                     f"({r['check']})"), file=sys.stderr, flush=True)
        rows.append((name, meta, results))
    dispatch_line = None
    if "dispatch" in chosen:
        if not pjrt:
            dispatch_line = "Dispatch through JAX: not measured (no libkiln_pjrt.so)."
        else:
            r = measure_peer("dispatch", "-", os.path.join(work_root, "dispatch"), 1.0,
                             SMALL_TIMEOUT, None, pjrt)
            if "error" in r:
                failures.append(f"dispatch: {r['error']}")
                dispatch_line = f"Dispatch through JAX: failed ({r['error'][:200]})."
            else:
                k = statistics.median(r["kiln"]["times"])
                c = statistics.median(r["cpu"]["times"])
                kt, ct = p99(r["kiln"]["times"]), p99(r["cpu"]["times"])
                dispatch_line = (
                    "Dispatch through JAX (a jitted `x + 1` on f32[8], input on the device, "
                    f"each call waited for; median and p99 of {len(r['kiln']['times'])} and "
                    f"{len(r['cpu']['times'])} calls in one process): {k * 1e6:.2f} us per call "
                    f"(p99 {kt * 1e6:.2f}) on Kiln (PJRT), {c * 1e6:.2f} us (p99 {ct * 1e6:.2f}) "
                    f"on XLA:CPU; Kiln/XLA:CPU {k / c:.2f} (p99 {kt / ct:.2f}).")
        print(dispatch_line, file=sys.stderr, flush=True)
    return dispatch_line


def jax_on_kiln_line(rows, bar=1.10):
    """What the plugin adds per call: JAX on Kiln's median call against Kiln's C API running the
    same program plus JAX's own call of the model's signature, all in one process, turn by
    turn (side_by_side)."""
    ratios = []
    for name, _, results in rows:
        sbs = results.get("JAX on Kiln (PJRT)", {}).get("side_by_side")
        if sbs:
            ratios.append((name, sbs["jax_s"] / (sbs["capi_s"] + sbs["null_s"]), sbs))
    if not ratios:
        return None
    within = sum(1 for _, r, _ in ratios if r <= bar)
    return ("JAX on Kiln against Kiln itself, in one process, turn by turn: JAX's median call of "
            "the model / (Kiln's C API running the same program + JAX's own call of the same "
            "signature, a jitted function returning zeros): "
            f"{within} of {len(ratios)} models within {bar:.2f}; "
            + ", ".join(f"{n} {r:.2f} ({s['jax_s'] * 1e6:.0f} / ({s['capi_s'] * 1e6:.0f} + "
                        f"{s['null_s'] * 1e6:.0f}) us)" for n, r, s in ratios) + ".")


def report(args, rows, failures, unfinished, dispatch_line, kiln, used, why, chosen, has_bench,
           total_s, gen_s):
    """4. the table, its header and notes: printed, and written where asked; the exit status."""
    lines = []
    estimate = any(r.get("estimate") for _, _, res in rows for r in res.values())
    lines.append("| model | system | check | compile | run (median) | run p99 | first call "
                 "| peak memory | Kiln/peer run | Kiln/peer p99 | Kiln/peer compile "
                 "| Kiln/peer memory |")
    lines.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, meta, results in rows:
        kiln_rows = [s for s in results if s.startswith("kiln")]
        ref = next((results[s] for s in kiln_rows if "error" not in results[s]), None)
        for sysname, r in results.items():
            is_kiln = sysname.startswith("kiln")
            if "error" in r:
                err = r["error"].replace("|", "/").replace("\n", " ")[:140]
                what = ("not finished" if r.get("timeout") and is_kiln and "interp" in sysname
                        else "FAIL")
                lines.append(f"| {name} | {sysname} | {what}: {err} | | | | | | | | | |")
                continue
            check = "ok" if r["ok"] else "FAIL: " + r["check"]
            comp = fmt_time(r.get("compile_s")) if r.get("compile_s") is not None else (
                "-" if not is_kiln else "n/a")
            star = "*" if r.get("estimate") else ""
            run = fmt_time(r["median_s"]) + star
            tail = fmt_time(r.get("p99_s")) + (star if r.get("p99_s") is not None else "")
            first = fmt_time(r.get("first_s")) + (star if r.get("first_s") is not None else "")
            mem = fmt_bytes(r["peak"]) + (star if r["peak"] is not None else "")
            if is_kiln or ref is None:
                ratios = ["", "", "", ""]
            else:
                ratios = [fmt_ratio(ref.get("median_s"), r["median_s"]),
                          fmt_ratio(ref.get("p99_s"), r.get("p99_s")),
                          fmt_ratio(ref.get("compile_s"), r.get("compile_s")),
                          fmt_ratio(ref.get("peak"), r.get("peak"))]
            lines.append(f"| {name} | {sysname} | {check} | {comp} | {run} | {tail} | {first} | {mem} | "
                         + " | ".join(ratios) + " |")
    table = "\n".join(lines)
    vers = versions()
    header = (f"Machine: {host_line(kiln)}, {platform.system()} "
              f"{platform.release()}. Date: {datetime.date.today().isoformat()}. "
              f"{kiln_version(kiln)}; "
              + ", ".join(f"{k} {v}" for k, v in vers.items()) + "."
              + (f" Load: {args.load} busy process{'es' if args.load != 1 else ''} (a Python "
                 f"loop{' each' if args.load != 1 else ''}) ran throughout the measurements, "
                 "the same for every system." if args.load else ""))
    notes = []
    if estimate:
        why_est = ("this Kiln has no `kiln bench` yet" if not has_bench else
                   f"a run over {SLOW_RUN_S} s is timed once, by `kiln run`")
        notes.append(f"*: {why_est}: Kiln's run time is the median wall time of a whole "
                     "`kiln run` process (parse, verify, run, .npy I/O) and its memory that "
                     "process's peak RSS less that of `kiln run` on a one-op program; no compile time. The "
                     "ratios compare those figures.")
    notes.append("run p99: the nearest-rank 99th percentile of the same timed calls as the "
                 "median (the slowest of them when there are fewer than 100); first call: the "
                 "first call after compiling, timed alone (Kiln: `kiln bench`'s first run); no "
                 "ratio, one call is too noisy a figure to compare.")
    notes.append("XLA:CPU and IREE (local-task) use every core of the machine; Kiln's interp "
                 "runs on one thread. XLA's peak memory includes its compilation (same process); "
                 "IREE's is the runtime's only (iree-compile runs before, in its own process).")
    if "kiln" not in chosen:
        pass
    elif used and used != args.kiln_devices.split(",")[0]:
        notes.append(f"`--device {args.kiln_devices}` chose `{used}` on this machine.")
    elif not used:
        notes.append(f"`--device {args.kiln_devices}`: {why}")
    if dispatch_line:
        notes.append(dispatch_line)
    overhead = jax_on_kiln_line(rows)
    if overhead:
        notes.append(overhead)
    summary = (f"{len(rows)} models, {sum(len(r[2]) for r in rows)} runs, "
               f"{len(failures)} failed, {len(unfinished)} did not finish in time; "
               f"total {total_s:.0f} s "
               f"(zoo export {gen_s:.0f} s).")
    print(header)
    print()
    print(table)
    print()
    for n in notes:
        print(n)
    print(summary)
    for title, items in (("Failures", failures), ("Did not finish", unfinished)):
        if items:
            print(f"\n{title}:")
            for f in items:
                print("  " + f)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"header": header, "load": args.load,
                       "rows": [[n, m, r] for n, m, r in rows]}, f, indent=1,
                      default=str)
    if args.write_results:
        write_results(header, table, notes, summary, failures, unfinished, args.quick)
    return 1 if failures else 0


def write_results(header, table, notes, summary, failures, unfinished, quick):
    path = os.path.join(ROOT, "bench", "RESULTS.md")
    text = open(path).read() if os.path.exists(path) else "# Benchmark results\n"
    section = ["## Peers", "",
               "`bench/run" + (" --quick" if quick else "") + "` (models from "
               "`bench/models/zoo.py`, exported from JAX; method in `bench/models/peers.py`). "
               "Kiln/peer above 1 means Kiln is slower or uses more memory.", "",
               header, "", table, ""]
    section += [n + "\n" for n in notes]
    section.append(summary)
    for title, items in (("Failures", failures), ("Did not finish", unfinished)):
        if items:
            section += ["", f"{title}:", ""] + [f"- {f}" for f in items]
    section = "\n".join(section).rstrip() + "\n"
    m = re.search(r"^## Peers\n.*?(?=^## |\Z)", text, flags=re.S | re.M)
    if m:
        text = text[:m.start()] + section + ("\n" if m.end() < len(text) else "") + text[m.end():]
    else:
        text = text.rstrip() + "\n\n" + section
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        sys.exit(worker_main(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))

"""Tiered execution (src/backends/cpu/tier.h) measured: time to first result on the model
zoo, an eager loop of small JAX programs, and the figures the tier policy is calibrated with.

Started by bench/tiers.sh (bench/run --tiers), which sets up the pinned Python environment
and builds Kiln first:
    bench/tiers.sh [--kiln PATH] [--quick] [--only NAME,...] [--rounds N]
                   [--parts first,eager,calibrate] [--target S] [--json FILE]

Every measurement is a fresh process, so nothing is warm: each system pays its one-time
costs inside what is timed (LLVM's and XLA's initialisation in the first compile, oneDNN's
kernel generation and thread start-up in the first run). Each is repeated --rounds times,
the systems interleaved, and the tables give the medians; ratios are of medians of one run
of this script. The load average at the start and end is printed with the tables.

first      For every zoo model (bench/models/zoo/, exported by bench/run): the time to the
           first result and the steady-state median run.
             Kiln tiered        `kiln bench` with KILN_CPU_TIER=auto (the default): its
                                "first result" (parse + verify + compile + the first run)
                                and its run median (the timed runs wait for the final tier:
                                the tier line says which ran and when the optimised code
                                was ready). "start": the tier the first run used.
             Kiln compile-first the same with KILN_CPU_TIER=optimized.
             XLA:CPU            bench/models/peers.py's XLA worker: Lowered.compile() plus
                                the first call (tracing and lowering, which Kiln's exported
                                text has already been through, are left out and reported
                                apart), then its run median; results checked against JAX's.
           The persistent compile cache is off for Kiln (KILN_CACHE_MAX_BYTES=0). A
           model's first Kiln process makes PROBE_RUNS timed runs, which size the others'
           to about --target seconds; a model whose compiled run takes over SLOW_RUN_S is
           measured in one round.
eager      200 distinct small programs (EAGER_OPS on EAGER_SHAPES: a jnp operation on small
           f32 arrays, each jax.jit'ed on its own), each called once and waited for (pass 1:
           trace, lower, compile, run), then each called again (pass 2: the executables
           exist); the total wall time of each pass, on Kiln through the PJRT plugin
           (default settings; its compile cache in a new empty folder) and on XLA:CPU, the
           same worker script in a fresh process each. Also: Kiln compile-first, and Kiln
           in a second process whose compile cache the first one filled.
calibrate  The costs tier.c's policy uses, on this host, each tier in fresh processes
           (KILN_CPU_TIER=baseline and =optimized): the baseline's extra run time per
           element its interpreted ops read and write (ps), from chains of K binary
           elementwise ops on f32[N]; and the optimising compile's extra time (optimized -
           baseline compile) against the number of ops the baseline interprets, fitted as
           a + b * ops (ms) over the zoo's small models.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import peers  # noqa: E402  (measure_peer, check_outputs, run_child, cpu_name, versions)

TIMEOUT = 300
PROBE_RUNS = 1     # Kiln's timed runs in a model's first process (which sizes the rest)
MIN_RUNS = 3      # ... and at least this many in the others, unless a run takes over 1 s
MAX_RUNS = 2000
SLOW_RUN_S = 5     # a model whose compiled run takes longer is measured in one round only
KILN_NO_CACHE = {"KILN_CACHE_MAX_BYTES": "0"}

# ------------------------------------------------------------------ host and load


def load_avg():
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def ms(s):
    return "-" if s is None else f"{s * 1e3:.1f}" if s >= 0.01 else f"{s * 1e3:.2f}"


def us(s):
    return "-" if s is None else f"{s * 1e6:.0f}" if s >= 1e-4 else f"{s * 1e6:.1f}"


# ------------------------------------------------------------------ part 1: first result

BENCH_COMPILE = re.compile(r"compile:\s*([\d.]+)\s*ms[^;\n]*;\s*first result\s*([\d.]+)\s*ms")
BENCH_RUN = re.compile(r"run:\s*median\s*([\d.]+)\s*us.*first run\s*([\d.]+)\s*us")
BENCH_TIER = re.compile(r"tier:\s*([^;]+);\s*runs:\s*(\d+) (fast-start|on quick code),\s*(\d+) optimised"
                        r"(?:;\s*optimised code ready\s*([\d.]+)\s*ms)?")


def kiln_bench(kiln, mlir, inputs, env, iterations=None, timeout=TIMEOUT):
    """One fresh `kiln bench` process (one warm-up run: the first run; `iterations` timed
    runs, or about a second's worth); its figures in seconds, or {"error": ...}."""
    cmd = [kiln, "bench", mlir, "--device", "cpu", "--warmup", "1"]
    if iterations:
        cmd += ["--iterations", str(iterations)]
    for i in inputs:
        cmd += ["--input", i]
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        rc, _, _, out, err = peers.run_child(cmd, timeout)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if rc != 0:
        return {"error": "timeout" if rc is None else (err or out).strip()[-400:]}
    c, r, t = BENCH_COMPILE.search(out), BENCH_RUN.search(out), BENCH_TIER.search(out)
    if not (c and r):
        return {"error": "cannot read kiln bench's output: " + out.strip()[-300:]}
    res = {"compile_s": float(c.group(1)) / 1e3, "first_result_s": float(c.group(2)) / 1e3,
           "median_s": float(r.group(1)) / 1e6, "first_run_s": float(r.group(2)) / 1e6}
    i = re.search(r"interpreted ops:\s*(\d+)", out)
    if i:
        res["interpreted_ops"] = int(i.group(1))
    if t:
        res.update(final_tier=t.group(1), fast_start_runs=int(t.group(2)),
                   start_kind="quick code" if t.group(3) == "on quick code" else "fast-start",
                   optimized_runs=int(t.group(4)),
                   ready_s=float(t.group(5)) / 1e3 if t.group(5) else None)
    else:
        res["error"] = "no tier line in kiln bench's output (a device without tiers?)"
    return res


def zoo_names(zoo_dir):
    """The models exported into zoo_dir (none when it does not exist)."""
    if not os.path.isdir(zoo_dir):
        return []
    return sorted(d for d in os.listdir(zoo_dir) if os.path.isfile(os.path.join(zoo_dir, d, "model.mlir")))


def model_inputs(model_dir):
    """A zoo model's input files, in parameter order (input_0.npy, input_1.npy, ...)."""
    n = len([f for f in os.listdir(model_dir) if re.fullmatch(r"input_\d+\.npy", f)])
    return [os.path.join(model_dir, f"input_{i}.npy") for i in range(n)]


def part_first(args, kiln, out):
    names = zoo_names(args.zoo)
    if args.quick:
        names = [n for n in names if "_small" in n]
    if args.only:
        want = set(args.only.split(","))
        missing = want - set(names)
        if missing:
            raise SystemExit(f"tiers.py: not in {args.zoo}: {', '.join(sorted(missing))}")
        names = [n for n in names if n in want]
    if not names:
        raise SystemExit(f"tiers.py: no models in {args.zoo} (bench/run exports them)")

    def kiln_tier(tier):
        return lambda d, ins, w, n: kiln_bench(kiln, os.path.join(d, "model.mlir"), ins,
                                               dict(KILN_NO_CACHE, KILN_CPU_TIER=tier), n)
    systems = [("tiered", kiln_tier("auto")), ("compile-first", kiln_tier("optimized")),
               ("xla", lambda d, ins, w, n: xla_first(d, w, args.target))]
    rows, failures = [], []
    work = tempfile.mkdtemp(prefix="kiln-tiers-")
    try:
        for name in names:
            d = os.path.join(args.zoo, name)
            ins = model_inputs(d)
            runs = {s: [] for s, _ in systems}
            # Kiln's timed runs: after the first process, about target_s worth
            iterations = PROBE_RUNS if args.rounds > 1 else MIN_RUNS
            for r in range(args.rounds):
                for s, fn in systems:
                    w = os.path.join(work, name, s, str(r))
                    os.makedirs(w, exist_ok=True)
                    m = fn(d, ins, w, iterations)
                    m["probe"] = s != "xla" and iterations < MIN_RUNS
                    if "error" in m:
                        failures.append(f"{name} {s} round {r + 1}: {m['error']}")
                    elif r == 0 and s == "tiered":
                        iterations = max(1 if m["median_s"] > 1 else MIN_RUNS, min(
                            MAX_RUNS, round(args.target / max(m["median_s"], 1e-6))))
                    runs[s].append(m)
                slow = [m["median_s"] for m in runs["compile-first"] if "median_s" in m]
                if slow and slow[0] > SLOW_RUN_S:
                    break  # a model this slow to run is measured once
            row = summarise_first(name, runs)
            rows.append(row)
            row["rounds"] = len(runs["tiered"])
            print(f"{name:24s} first result ms: tiered {ms(row['tiered']['first_result_s'])} "
                  f"compile-first {ms(row['compile-first']['first_result_s'])} "
                  f"xla {ms(row['xla']['first_result_s'])}; start {row['tiered']['start']}",
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out["first"] = {"rows": rows, "failures": failures}
    return rows, failures


def xla_first(model_dir, work, target_s):
    """XLA:CPU through peers.py's worker (a fresh process): compile + first call."""
    r = peers.measure_peer("xla", model_dir, work, target_s, TIMEOUT, None)
    if "error" in r:
        return r
    meta = json.load(open(os.path.join(model_dir, "meta.json")))
    ok, check = peers.check_outputs(model_dir, work, meta)
    res = {"compile_s": r["compile_s"], "lower_s": r["lower_s"],
           "first_result_s": r["compile_s"] + r["first_s"], "first_run_s": r["first_s"],
           "median_s": statistics.median(r["times"])}
    if not ok:
        res["error"] = "XLA:CPU's result disagrees with the reference: " + check
    return res


def summarise_first(name, runs):
    row = {"model": name}
    for s, ms_list in runs.items():
        good = [m for m in ms_list if "error" not in m]
        row[s] = {k: med([m.get(k) for m in good]) for k in
                  ("compile_s", "first_result_s", "first_run_s", "lower_s", "ready_s")}
        # the steady state: not from a process that sized the others with too few runs
        steady = [m for m in good if not m["probe"]] or good
        row[s]["median_s"] = med([m["median_s"] for m in steady])
        row[s]["n"] = len(good)
        if s != "xla":
            starts = {m.get("start_kind") if m.get("fast_start_runs") else "compiled" for m in good}
            row[s]["start"] = "/".join(sorted(starts)) or "-"
            finals = {m.get("final_tier") for m in good}
            row[s]["final"] = "/".join(sorted(f for f in finals if f)) or "-"
    return row


def table_first(rows):
    lines = [
        "| model | start (auto) | optimised ready after | first result: tiered | compile-first | XLA:CPU "
        "| tiered / compile-first | tiered / XLA:CPU | steady median: tiered | compile-first | XLA:CPU "
        "| tiered / compile-first steady |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        t, c, x = r["tiered"], r["compile-first"], r["xla"]
        tm = peers.fmt_time
        lines.append(
            f"| {r['model']}{'' if r['rounds'] > 1 else ' (1 round)'} | {t['start']} "
            f"| {tm(t['ready_s'])} | {tm(t['first_result_s'])} | {tm(c['first_result_s'])} "
            f"| {tm(x['first_result_s'])} | {ratio(t['first_result_s'], c['first_result_s'])} "
            f"| {ratio(t['first_result_s'], x['first_result_s'])} | {tm(t['median_s'])} "
            f"| {tm(c['median_s'])} | {tm(x['median_s'])} | {ratio(t['median_s'], c['median_s'])} |")
    return "\n".join(lines)


def summary_first(rows):
    """Geometric means of the ratios, and the models whose steady state is off by more than 5%."""
    import math

    def gmean(pairs):
        vals = [a / b for a, b in pairs if a and b]
        return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None

    def ratios(sa, sb, k):
        return [(r[sa][k], r[sb][k]) for r in rows]
    g1 = gmean(ratios("tiered", "compile-first", "first_result_s"))
    g2 = gmean(ratios("tiered", "xla", "first_result_s"))
    g3 = gmean(ratios("compile-first", "xla", "first_result_s"))
    g4 = gmean(ratios("tiered", "compile-first", "median_s"))
    off = [f"{r['model']} {r['tiered']['median_s'] / r['compile-first']['median_s']:.2f}"
           for r in rows if r["tiered"]["median_s"] and r["compile-first"]["median_s"]
           and abs(r["tiered"]["median_s"] / r["compile-first"]["median_s"] - 1) > 0.05]
    started = sum(1 for r in rows if "fast-start" in r["tiered"]["start"])
    quick = sum(1 for r in rows if "quick code" in r["tiered"]["start"])
    fmt = lambda g: "-" if g is None else f"{g:.2f}"  # noqa: E731
    lower = med([r["xla"]["lower_s"] for r in rows])
    return (f"Geometric means over {len(rows)} models: first result tiered / compile-first "
            f"{fmt(g1)}, tiered / XLA:CPU {fmt(g2)}, compile-first / XLA:CPU {fmt(g3)}; steady "
            f"median tiered / compile-first {fmt(g4)}. The auto policy started {started} of "
            f"{len(rows)} models on the baseline fast-start tier and {quick} on quick code. Steady state off by more than 5%: "
            f"{', '.join(off) if off else 'none'}. XLA's trace + lower (not counted above): "
            f"median {ms(lower)} ms per model.")


# ------------------------------------------------------------------ part 2: the eager loop

# name -> function of (x, y), both f32 of one shape; the ops work on any rank >= 1
EAGER_OPS = [
    ("add", "x + y"), ("sub", "x - y"), ("mul", "x * y"), ("div", "x / (jnp.abs(y) + 1)"),
    ("max", "jnp.maximum(x, y)"), ("min", "jnp.minimum(x, y)"), ("sin", "jnp.sin(x)"),
    ("cos", "jnp.cos(x)"), ("tanh", "jnp.tanh(x)"), ("exp", "jnp.exp(x)"),
    ("log1p", "jnp.log1p(jnp.abs(x))"), ("sqrt", "jnp.sqrt(jnp.abs(x))"),
    ("neg", "-x"), ("abs", "jnp.abs(x)"), ("floor", "jnp.floor(x)"), ("sign", "jnp.sign(x)"),
    ("square", "x * x"), ("sigmoid", "jax.nn.sigmoid(x)"), ("relu", "jax.nn.relu(x)"),
    ("gelu", "jax.nn.gelu(x)"), ("erf", "jax.lax.erf(x)"), ("atan2", "jnp.arctan2(x, y)"),
    ("pow", "jnp.power(jnp.abs(x) + 1, y)"), ("where", "jnp.where(x > y, x, y)"),
    ("clip", "jnp.clip(x, -0.5, 0.5)"), ("sum", "jnp.sum(x, axis=-1)"),
    ("max_reduce", "jnp.max(x, axis=0)"), ("mean", "jnp.mean(x)"),
    ("argmax", "jnp.argmax(x, axis=-1)"), ("cumsum", "jnp.cumsum(x, axis=-1)"),
    ("sort", "jnp.sort(x, axis=-1)"), ("softmax", "jax.nn.softmax(x, axis=-1)"),
    ("logsumexp", "jax.nn.logsumexp(x, axis=-1)"), ("flip", "jnp.flip(x, axis=-1)"),
    ("reverse_cat", "jnp.concatenate([x, y[..., ::-1]], axis=-1)"),
    ("pad", "jnp.pad(x, 1)"), ("stride", "x[..., ::2] * 2"), ("reshape", "jnp.ravel(x) + 1"),
    ("dot", "jnp.tensordot(x, y, axes=x.ndim)"), ("norm", "x / (jnp.linalg.norm(x) + 1)"),
]
EAGER_SHAPES = [(7,), (64,), (16, 16), (8, 33), (2, 3, 32)]
EVENT_TRACE = "/jax/core/compile/jaxpr_trace_duration"
EVENT_LOWER = "/jax/core/compile/jaxpr_to_mlir_module_duration"
EVENT_COMPILE = "/jax/core/compile/backend_compile_duration"


def worker_eager(platform, out_json):
    """Runs in a fresh process: the eager loop on `platform` ("kiln" or "cpu")."""
    import jax
    import jax.numpy as jnp  # noqa: F401  (the op strings use it)
    import numpy as np
    jax.config.update("jax_platforms", platform)
    rng = np.random.default_rng(0)
    progs = []
    for shape in EAGER_SHAPES:
        for name, expr in EAGER_OPS:
            fn = eval(f"lambda x, y: {expr}", {"jax": jax, "jnp": jnp})  # a new function each
            x = jax.device_put(rng.standard_normal(shape).astype(np.float32))
            y = jax.device_put(rng.standard_normal(shape).astype(np.float32))
            progs.append((f"{name}{list(shape)}", jax.jit(fn), x, y))
    jax.block_until_ready([p[2:] for p in progs])
    events = {}  # JAX's own durations: tracing, lowering to StableHLO, the backend's compile
    jax.monitoring.register_event_duration_secs_listener(
        lambda event, secs, **_: events.__setitem__(event, events.get(event, 0.0) + secs))
    passes, errors = [], {}
    for _ in range(2):
        per = []
        events.clear()
        cpu0, t0 = time.process_time(), time.perf_counter()
        for name, f, x, y in progs:
            t = time.perf_counter()
            try:
                jax.block_until_ready(f(x, y))
            except Exception as e:  # reported
                errors.setdefault(name, f"{type(e).__name__}: {str(e)[:300]}")
            per.append((time.perf_counter() - t, name))
        passes.append({"total_s": time.perf_counter() - t0, "cpu_s": time.process_time() - cpu0,
                       "slowest": sorted(per)[-5:],
                       "trace_lower_s": events.get(EVENT_TRACE, 0.0) + events.get(EVENT_LOWER, 0.0),
                       "backend_compile_s": events.get(EVENT_COMPILE, 0.0)})
    with open(out_json, "w") as f:
        json.dump({"programs": len(progs), "passes": passes, "errors": errors}, f)
    return 0


def eager_process(platform, pjrt, env, work):
    """One fresh worker process; its figures (the process's whole wall time too)."""
    out_json = os.path.join(work, "eager.json")
    if os.path.exists(out_json):
        os.unlink(out_json)
    e = dict(os.environ, PYTHONPATH=HERE, **env)
    if platform == "kiln":
        e["PJRT_NAMES_AND_LIBRARY_PATHS"] = "kiln:" + pjrt
        e["PYTHONPATH"] = os.pathsep.join([HERE, os.path.join(ROOT, "python")])
    t = time.perf_counter()
    try:
        cp = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker-eager", platform,
                             out_json], capture_output=True, text=True, timeout=TIMEOUT, env=e)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {TIMEOUT} s"}
    wall = time.perf_counter() - t
    if cp.returncode != 0 or not os.path.exists(out_json):
        return {"error": f"worker exit status {cp.returncode}: {cp.stderr.strip()[-600:]}"}
    r = json.load(open(out_json))
    r["process_s"] = wall
    return r


def part_eager(args, pjrt, out):
    if not pjrt:
        raise SystemExit("tiers.py: the eager loop needs libkiln_pjrt.so beside kiln (--pjrt)")
    rows = {"kiln": [], "kiln-warm-cache": [], "kiln-compile-first": [], "xla": []}
    failures = []
    work = tempfile.mkdtemp(prefix="kiln-eager-")
    try:
        for r in range(args.rounds):
            cache = os.path.join(work, f"cache-{r}")
            runs = [("kiln", "kiln", {"KILN_CACHE_DIR": cache}),
                    ("kiln-warm-cache", "kiln", {"KILN_CACHE_DIR": cache}),
                    ("kiln-compile-first", "kiln", dict(KILN_NO_CACHE, KILN_CPU_TIER="optimized")),
                    ("xla", "cpu", {})]
            for key, platform, env in runs:
                m = eager_process(platform, pjrt, env, work)
                if "error" in m:
                    failures.append(f"eager {key} round {r + 1}: {m['error']}")
                    continue
                for name, err in m["errors"].items():
                    failures.append(f"eager {key} round {r + 1}: {name}: {err}")
                rows[key].append(m)
                print(f"eager {key:20s} pass 1 {m['passes'][0]['total_s']:.3f} s, pass 2 "
                      f"{m['passes'][1]['total_s'] * 1e3:.1f} ms, process {m['process_s']:.2f} s",
                      file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out["eager"] = {"runs": rows, "failures": failures}
    return rows, failures


def table_eager(rows):
    label = {"kiln": "Kiln (PJRT, default settings: tiered, empty compile cache)",
             "kiln-warm-cache": "Kiln, a second process on the cache the first filled",
             "kiln-compile-first": "Kiln, KILN_CPU_TIER=optimized, no compile cache",
             "xla": "XLA:CPU"}
    x1 = med([m["passes"][0]["total_s"] for m in rows["xla"]])
    x2 = med([m["passes"][1]["total_s"] for m in rows["xla"]])
    lines = ["| system | pass 1 (compile + run) | of which trace + lower | of which backend compile "
             "| pass 1 CPU time | pass 2 (run) | per program, pass 1 / pass 2 "
             "| pass 1 / XLA:CPU | pass 2 / XLA:CPU | whole process | slowest program, pass 1 |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for key, ms_list in rows.items():
        if not ms_list:
            lines.append(f"| {label[key]} | failed |" + " |" * 10)
            continue
        p1 = med([m["passes"][0]["total_s"] for m in ms_list])
        p2 = med([m["passes"][1]["total_s"] for m in ms_list])
        n = ms_list[0]["programs"]
        slow = ms_list[len(ms_list) // 2]["passes"][0]["slowest"][-1]
        p1x = {k: med([m["passes"][0][k] for m in ms_list])
               for k in ("trace_lower_s", "backend_compile_s", "cpu_s")}
        lines.append(f"| {label[key]} | {p1:.3f} s | {p1x['trace_lower_s']:.3f} s "
                     f"| {p1x['backend_compile_s']:.3f} s | {p1x['cpu_s']:.3f} s "
                     f"| {p2 * 1e3:.1f} ms | {ms(p1 / n)} ms / "
                     f"{us(p2 / n)} us | {ratio(p1, x1)} | {ratio(p2, x2)} "
                     f"| {med([m['process_s'] for m in ms_list]):.2f} s | {slow[1]} {ms(slow[0])} ms |")
    return "\n".join(lines)


# ------------------------------------------------------------------ part 3: calibration

CAL_SIZES = [4096, 65536]
CAL_OPS = [4, 16, 64]


def chain_mlir(n, k):
    """f32[n] x, y -> k binary elementwise ops, each reading the last result and y."""
    names = ["add", "multiply", "subtract", "maximum"]
    lines = [f"func.func @main(%x: tensor<{n}xf32>, %y: tensor<{n}xf32>) -> tensor<{n}xf32> {{"]
    last = "%x"
    for i in range(k):
        lines.append(f"  %v{i} = stablehlo.{names[i % 4]} {last}, %y : tensor<{n}xf32>")
        last = f"%v{i}"
    lines += [f"  return {last} : tensor<{n}xf32>", "}", ""]
    return "\n".join(lines)


def both_tiers(kiln, path, inputs, rounds, iterations, what, failures):
    """kiln bench of path on the baseline and the optimised tier, rounds times each; the
    lists of figures, or None when a run failed."""
    got = {"baseline": [], "optimized": []}
    for _ in range(rounds):
        for tier in got:
            m = kiln_bench(kiln, path, inputs, dict(KILN_NO_CACHE, KILN_CPU_TIER=tier), iterations)
            if "error" in m:
                failures.append(f"calibrate {what} {tier}: {m['error']}")
                return None
            got[tier].append(m)
    return got


def part_calibrate(args, kiln, out):
    """Interpreted elementwise cost from chains of ops (which fuse into one generated loop:
    they say nothing of the compile's cost per op); the optimising compile's extra time
    against the interpreted steps of the baseline from the zoo's small models."""
    work = tempfile.mkdtemp(prefix="kiln-calib-")
    chains, models, failures = [], [], []
    try:
        for n in CAL_SIZES:
            for k in CAL_OPS:
                path = os.path.join(work, f"chain_{n}_{k}.mlir")
                with open(path, "w") as f:
                    f.write(chain_mlir(n, k))
                got = both_tiers(kiln, path, [], args.rounds, None, f"n={n} k={k}", failures)
                if not got:
                    continue
                b, o = got["baseline"], got["optimized"]
                row = {"n": n, "k": k, "elements": 3 * n * k,
                       "base_run_s": med([m["median_s"] for m in b]),
                       "opt_run_s": med([m["median_s"] for m in o])}
                row["ps_per_element"] = ((row["base_run_s"] - row["opt_run_s"]) * 1e12
                                         / row["elements"])
                chains.append(row)
                print(f"calibrate n={n} k={k}: {row['ps_per_element']:.0f} ps/element",
                      file=sys.stderr, flush=True)
        for name in [n for n in zoo_names(args.zoo) if "_small" in n]:
            d = os.path.join(args.zoo, name)
            ins = model_inputs(d)
            got = both_tiers(kiln, os.path.join(d, "model.mlir"), ins, args.rounds, 1, name, failures)
            if not got or "interpreted_ops" not in got["baseline"][0]:
                continue
            models.append({"model": name, "ops": got["baseline"][0]["interpreted_ops"],
                           "base_compile_s": med([m["compile_s"] for m in got["baseline"]]),
                           "opt_compile_s": med([m["compile_s"] for m in got["optimized"]])})
            print(f"calibrate {name}: {models[-1]['ops']} interpreted ops, compile "
                  f"{ms(models[-1]['opt_compile_s'])} against {ms(models[-1]['base_compile_s'])} ms",
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out["calibrate"] = {"chains": chains, "models": models, "failures": failures}
    return chains, models, failures


def fit_line(pts):
    """Least squares v = a + b * k over (k, v) points; None when k takes fewer than 2 values."""
    if len({k for k, _ in pts}) < 2:
        return None
    mk = sum(k for k, _ in pts) / len(pts)
    mv = sum(v for _, v in pts) / len(pts)
    b = sum((k - mk) * (v - mv) for k, v in pts) / sum((k - mk) ** 2 for k, _ in pts)
    return mv - b * mk, b


def table_calibrate(chains, models):
    lines = ["| f32[N] | ops K | baseline run | optimised run | ps per element (interpreted) |",
             "| ---: | ---: | ---: | ---: | ---: |"]
    for r in chains:
        lines.append(f"| {r['n']} | {r['k']} | {us(r['base_run_s'])} us | {us(r['opt_run_s'])} us "
                     f"| {r['ps_per_element']:.0f} |")
    lines += ["", "| model | interpreted ops (baseline) | baseline compile | optimised compile |",
              "| --- | ---: | ---: | ---: |"]
    for r in models:
        lines.append(f"| {r['model']} | {r['ops']} | {ms(r['base_compile_s'])} ms "
                     f"| {ms(r['opt_compile_s'])} ms |")
    pe = med([r["ps_per_element"] for r in chains if r["n"] == max(CAL_SIZES)])
    fit = fit_line([(r["ops"], r["opt_compile_s"] - r["base_compile_s"]) for r in models])
    lines.append("")
    lines.append("calibration: interpreted elementwise "
                 + (f"{pe:.0f} ps per element (median at N={max(CAL_SIZES)})" if pe else "-")
                 + "; optimising compile beyond the baseline's "
                 + (f"{fit[0] * 1e3:.1f} ms + {fit[1] * 1e3:.2f} ms per interpreted op" if fit
                    else "-")
                 + " (least squares over the models above; tier.c: INTERP_PS_PER_ELEMENT, "
                 "COMPILE_BASE_US, COMPILE_US_PER_OP)")
    return "\n".join(lines)


# ------------------------------------------------------------------ main


def main(argv):
    ap = argparse.ArgumentParser(description="Kiln's tiers: first result, eager loop, calibration")
    ap.add_argument("--kiln", required=True, help="the kiln executable")
    ap.add_argument("--pjrt", default="", help="libkiln_pjrt.so (default: beside kiln)")
    ap.add_argument("--zoo", default=os.path.join(HERE, "zoo"))
    ap.add_argument("--quick", action="store_true", help="small models only")
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--rounds", type=int, default=3, help="fresh processes per figure (median)")
    ap.add_argument("--parts", default="first,eager,calibrate")
    ap.add_argument("--target", type=float, default=0.5,
                    help="seconds of steady-state runs per process (Kiln, XLA:CPU)")
    ap.add_argument("--json", default="", help="also write every measurement here")
    args = ap.parse_args(argv)
    parts = args.parts.split(",")
    bad = set(parts) - {"first", "eager", "calibrate"}
    if bad or args.rounds < 1:
        ap.error(f"--parts takes first, eager, calibrate (got {args.parts}); --rounds >= 1")
    kiln = os.path.abspath(args.kiln)
    if not os.access(kiln, os.X_OK):
        ap.error(f"no kiln executable at {kiln}")
    pjrt = os.path.abspath(args.pjrt) if args.pjrt else os.path.join(os.path.dirname(kiln),
                                                                      "libkiln_pjrt.so")
    pjrt = pjrt if os.path.isfile(pjrt) else None
    out = {"host": peers.host_line(kiln), "versions": peers.versions(), "load_start": load_avg(),
           "kiln": peers.kiln_version(kiln), "rounds": args.rounds}
    t0 = time.perf_counter()
    failures, sections = [], []
    if "first" in parts:
        rows, f = part_first(args, kiln, out)
        failures += f
        sections.append("### Time to first result (fresh process each; medians)\n\n"
                        + table_first(rows) + "\n\n" + summary_first(rows))
    if "eager" in parts:
        rows, f = part_eager(args, pjrt, out)
        failures += f
        sections.append(f"### Eager loop: {len(EAGER_OPS) * len(EAGER_SHAPES)} small jitted "
                        "programs, each run once, then all again (fresh process each; medians)\n\n"
                        + table_eager(rows))
    if "calibrate" in parts:
        chains, models, f = part_calibrate(args, kiln, out)
        failures += f
        sections.append("### Calibration of the tier policy\n\n" + table_calibrate(chains, models))
    out["load_end"] = load_avg()
    out["failures"] = failures
    print(f"Host: {out['host']}. {out['kiln']}; jax {out['versions']['jax']}. {args.rounds} "
          f"rounds, medians; load average (1/5/15 min) {out['load_start']} at the start, "
          f"{out['load_end']} at the end; {time.perf_counter() - t0:.0f} s.\n")
    print("\n\n".join(sections))
    if failures:
        print("\nFailures:\n" + "\n".join(f"- {x}" for x in failures))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker-eager":
        sys.exit(worker_eager(sys.argv[2], sys.argv[3]))
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Runs JAX's own test files on Kiln and sums them up per file and per cause of failure.

    python/run_jax_tests.py JAX_CHECKOUT [--plugin build/libkiln_pjrt.so] [--out DIR]
                            [--python PY] [-n 2] [--files tests/lax_test.py,...] [-- PYTEST_ARGS]

JAX_CHECKOUT holds jax-ml/jax at tag jax-v0.10.2 (its tests/ and root conftest.py and
pyproject.toml; this script fetches nothing):
    git --git-dir=JAX.git archive jax-v0.10.2 tests conftest.py pyproject.toml | tar -x -C DIR

The Python (default: tests/python/.venv, made by tests/python/venv.sh) needs jax==0.10.2,
jaxlib==0.10.2, pytest, pytest-xdist, pytest-timeout, absl-py and hypothesis. Kiln comes from
--plugin (registered through PJRT_NAMES_AND_LIBRARY_PATHS, with python/ on PYTHONPATH for the
package's lowering rules), else from the installed kiln-jax package.

Each file runs with JAX_PLATFORMS=kiln, JAX's default JAX_NUM_GENERATED_CASES (10) unless set,
jax_test_dut=kiln (--dut; python/testing/kiln_jax_pytest.py sets it in every worker), pytest-xdist
with -n workers (a crashing test costs a worker, not the run), a per-test timeout, and JAX's own
pytest configuration (its pyproject.toml: warnings are errors). Written to --out:
    FILE.xml          junit XML per test file
    FILE.log          pytest's output
    failures.tsv      every failed test: file, test id, kind (failed/error), first message line
    causes.tsv        failures grouped by cause (message with numbers, shapes and dtypes
                      abstracted), most frequent first, with an example test
    summary.txt       the per-file table printed at the end
Exit status 0 when the runs finished (failures are results), 2 on a setup problem.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_FILES = ["tests/lax_test.py", "tests/lax_numpy_test.py",
                 "tests/lax_numpy_operators_test.py", "tests/lax_control_flow_test.py"]


def default_python():
    for c in (os.path.join(ROOT, "tests", "python", ".venv", "bin", "python"),
              os.path.join(ROOT, "bench", ".venv", "bin", "python")):
        if os.path.exists(c):
            return c
    return sys.executable


def first_line(text):
    for line in (text or "").splitlines():
        line = line.strip()
        if line:
            return line[:400]
    return ""


def cause_of(message):
    """A failure message with its particulars abstracted, so that failures of one cause group."""
    m = message
    m = re.sub(r"0x[0-9a-fA-F]+", "0x_", m)
    m = re.sub(r"\b(b?float|u?int|complex)\d+\b", "DT", m)
    m = re.sub(r"\bbool\b", "DT", m)
    m = re.sub(r"\[[\d, ]*\]|\([\d, ]*\)", "[S]", m)
    m = re.sub(r"tensor<[^>]*>", "tensor<_>", m)
    m = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", m)
    m = re.sub(r"'[^']{40,}'", "'...'", m)
    return m[:200]


def parse_junit(path):
    """(counts, failures): counts of passed/failed/error/skipped, failures as
    (test id, kind, message)."""
    counts = collections.Counter()
    failures = []
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return counts, failures
    for case in root.iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        kind = "passed"
        msg = ""
        for child in case:
            if child.tag in ("failure", "error"):
                kind = "failed" if child.tag == "failure" else "error"
                msg = first_line(child.get("message") or child.text)
                break
            if child.tag == "skipped":
                kind = "skipped"
        counts[kind] += 1
        if kind in ("failed", "error"):
            failures.append((name, kind, msg))
    return counts, failures


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jax", help="a checkout of jax-ml/jax at jax-v0.10.2 (tests/, conftest.py)")
    ap.add_argument("--plugin", default="", help="libkiln_pjrt.so to test (default: the "
                    "installed kiln-jax package)")
    ap.add_argument("--python", default=default_python())
    ap.add_argument("--out", default=os.path.join(ROOT, "build-jax-tests"))
    ap.add_argument("-n", "--workers", default="2", help="pytest-xdist workers (0: none)")
    ap.add_argument("--files", default=",".join(DEFAULT_FILES))
    ap.add_argument("--dut", default="kiln", help="jax_test_dut (default kiln)")
    ap.add_argument("--platforms", default="kiln", help="JAX_PLATFORMS (default kiln; "
                    "kiln,cpu lets the few tests that ask for backend='cpu' have it)")
    ap.add_argument("--timeout", default="600", help="seconds per test (pytest-timeout)")
    ap.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = ap.parse_args(argv)

    jax_dir = os.path.abspath(args.jax)
    if not os.path.isfile(os.path.join(jax_dir, "conftest.py")):
        print(f"run_jax_tests: {jax_dir} has no conftest.py (a jax-v0.10.2 checkout?)",
              file=sys.stderr)
        return 2
    files = [f for f in args.files.split(",") if f]
    for f in files:
        if not os.path.isfile(os.path.join(jax_dir, f)):
            print(f"run_jax_tests: {f} not in {jax_dir}", file=sys.stderr)
            return 2
    os.makedirs(args.out, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PJRT_NAMES")}
    env["JAX_PLATFORMS"] = args.platforms
    env["KILN_JAX_TEST_DUT"] = args.dut
    paths = [os.path.join(HERE, "testing")]  # kiln_jax_pytest
    if args.plugin:
        plugin = os.path.abspath(args.plugin)
        if not os.path.isfile(plugin):
            print(f"run_jax_tests: no plugin at {plugin}", file=sys.stderr)
            return 2
        env["PJRT_NAMES_AND_LIBRARY_PATHS"] = "kiln:" + plugin
        paths.append(HERE)  # this tree's jax_plugins.kiln (its lowering rules)
    env["PYTHONPATH"] = os.pathsep.join(paths + [p for p in [env.get("PYTHONPATH")] if p])
    check = subprocess.run([args.python, "-c", "import jax, pytest, xdist, pytest_timeout, "
                            "absl, hypothesis; print(jax.__version__, jax.devices()[0].platform)"],
                           capture_output=True, text=True, env=env, cwd=jax_dir)
    if check.returncode != 0:
        print("run_jax_tests: the environment is not ready:\n" + check.stderr[-2000:],
              file=sys.stderr)
        return 2
    print(f"run_jax_tests: jax {check.stdout.strip()} ({args.python})", flush=True)

    rows = []
    all_failures = []
    for f in files:
        stem = os.path.splitext(os.path.basename(f))[0]
        xml = os.path.join(args.out, stem + ".xml")
        log = os.path.join(args.out, stem + ".log")
        cmd = [args.python, "-m", "pytest", "-p", "kiln_jax_pytest", "-p", "no:cacheprovider",
               f, "-q", "-rN", f"--junitxml={xml}", f"--timeout={args.timeout}"]
        if args.workers not in ("", "0"):
            cmd += ["-n", args.workers, "--max-worker-restart=1000", "--dist=load"]
        cmd += args.pytest_args
        t = time.perf_counter()
        with open(log, "w") as lf:
            rc = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, env=env,
                                cwd=jax_dir).returncode
        wall = time.perf_counter() - t
        counts, failures = parse_junit(xml)
        if not counts:
            counts["error"] = 1
            failures = [(f, "error", f"pytest exited {rc} without results: see {log}")]
        rows.append((f, counts, wall))
        all_failures += [(f, *x) for x in failures]
        print(f"{f}: {counts['passed']} passed, {counts['failed']} failed, "
              f"{counts['error']} errors, {counts['skipped']} skipped ({wall:.0f} s)", flush=True)

    with open(os.path.join(args.out, "failures.tsv"), "w") as out:
        out.write("file\ttest\tkind\tmessage\n")
        for f, name, kind, msg in all_failures:
            out.write(f"{f}\t{name}\t{kind}\t{msg}\n")
    causes = collections.Counter()
    example = {}
    for f, name, kind, msg in all_failures:
        c = cause_of(msg)
        causes[c] += 1
        example.setdefault(c, f"{f}::{name.split('::')[-1]}")
    with open(os.path.join(args.out, "causes.tsv"), "w") as out:
        out.write("count\tcause\texample\n")
        for c, n in causes.most_common():
            out.write(f"{n}\t{c}\t{example[c]}\n")

    lines = ["| file | passed | failed | errors | skipped | time |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    total = collections.Counter()
    for f, counts, wall in rows:
        total.update(counts)
        lines.append(f"| {f} | {counts['passed']} | {counts['failed']} | {counts['error']} | "
                     f"{counts['skipped']} | {wall:.0f} s |")
    lines.append(f"| total | {total['passed']} | {total['failed']} | {total['error']} | "
                 f"{total['skipped']} | |")
    summary = "\n".join(lines)
    with open(os.path.join(args.out, "summary.txt"), "w") as out:
        out.write(summary + "\n")
    print()
    print(summary)
    if causes:
        print(f"\nMost frequent causes of failure (all in {args.out}/causes.tsv):")
        for c, n in causes.most_common(15):
            print(f"  {n:5d}  {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

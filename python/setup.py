"""Builds Kiln with CMake and bundles its runtime into the kiln-jax package.

The build step (build_py) runs the normal top-level CMake build of the Kiln tree this file
sits in (or KILN_SOURCE_DIR), then `cmake --install --component runtime --strip` into a
staging folder, and copies its lib/ and bin/ into jax_plugins/kiln/ unchanged:

  jax_plugins/kiln/lib/libkiln.so.0            the base library (its soname)
  jax_plugins/kiln/lib/libkiln_pjrt.so         the PJRT plugin JAX loads   RUNPATH $ORIGIN
  jax_plugins/kiln/lib/kiln-plugins/*.so       the backends                RUNPATH $ORIGIN/..
  jax_plugins/kiln/bin/kiln                    the CLI                     RUNPATH $ORIGIN/../lib

Every RPATH is $ORIGIN-relative, so the folder works wherever pip puts it. Wheels cannot hold
symbolic links, so a library installed as a file plus links to it is copied once, under the
name of its link (libkiln.so.0.1.0 <- libkiln.so.0 becomes one file libkiln.so.0, the name the
other libraries ask for).

Environment:
  KILN_SOURCE_DIR       the Kiln tree (default: the folder above this one)
  KILN_BUILD_DIR        a CMake build folder to use and keep (default: a temporary one)
  KILN_CMAKE_ARGS       extra arguments for the CMake configure step (split on spaces)
  CMAKE_BUILD_PARALLEL_LEVEL   build jobs (default: the number of CPUs)
"""
import os
import re
import shutil
import subprocess
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join("jax_plugins", "kiln")


def source_dir():
    src = os.environ.get("KILN_SOURCE_DIR") or os.path.dirname(HERE)
    if not os.path.isfile(os.path.join(src, "CMakeLists.txt")) or not os.path.isfile(
            os.path.join(src, "include", "kiln", "kiln.h")):
        raise SystemExit(f"kiln-jax: no Kiln source tree at {src} (set KILN_SOURCE_DIR); "
                         "install the package from a Kiln checkout: pip install ./python")
    return src


def kiln_version():
    try:
        text = open(os.path.join(source_dir(), "include", "kiln", "kiln.h")).read()
    except SystemExit:
        return "0.0.0"
    m = re.search(r'^#define KILN_VERSION_STRING "([^"]+)"', text, re.M)
    return m.group(1) if m else "0.0.0"


def run(cmd):
    print("kiln-jax:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def copy_tree_flat_links(src, dst):
    """Copies src into dst, files only: a symbolic link to a file of the same folder becomes a
    copy of that file under the link's name, and the linked-to file itself is then left out."""
    os.makedirs(dst, exist_ok=True)
    names = sorted(os.listdir(src))
    linked = set()
    for n in names:
        p = os.path.join(src, n)
        if os.path.islink(p):
            target = os.path.realpath(p)
            if os.path.dirname(target) == os.path.realpath(src):
                linked.add(os.path.basename(target))
    for n in names:
        p = os.path.join(src, n)
        if os.path.isdir(p) and not os.path.islink(p):
            copy_tree_flat_links(p, os.path.join(dst, n))
        elif n in linked and not os.path.islink(p):
            continue
        elif os.path.exists(p):
            shutil.copy2(os.path.realpath(p), os.path.join(dst, n))


class BuildKiln(build_py):
    """build_py, then the CMake build of Kiln, staged into the package's build folder."""

    def run(self):
        super().run()
        src = source_dir()
        keep = os.environ.get("KILN_BUILD_DIR")
        build = keep or tempfile.mkdtemp(prefix="kiln-jax-build-")
        stage = tempfile.mkdtemp(prefix="kiln-jax-stage-")
        try:
            configure = ["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                         "-DBUILD_TESTING=OFF"]
            configure += os.environ.get("KILN_CMAKE_ARGS", "").split()
            run(configure)
            jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
            run(["cmake", "--build", build, "-j", jobs])
            run(["cmake", "--install", build, "--component", "runtime", "--prefix", stage,
                 "--strip"])
            pjrt = os.path.join(stage, "lib", "libkiln_pjrt.so")
            if not os.path.exists(pjrt):
                raise SystemExit("kiln-jax: the build installed no lib/libkiln_pjrt.so (is the "
                                 "kiln_pjrt target built and installed in component runtime?)")
            out = os.path.join(self.build_lib, PACKAGE)
            for sub in ("lib", "bin"):
                if os.path.isdir(os.path.join(out, sub)):
                    shutil.rmtree(os.path.join(out, sub))
                if os.path.isdir(os.path.join(stage, sub)):
                    copy_tree_flat_links(os.path.join(stage, sub), os.path.join(out, sub))
        finally:
            shutil.rmtree(stage, ignore_errors=True)
            if not keep:
                shutil.rmtree(build, ignore_errors=True)


class BinaryDistribution(Distribution):
    """Native code inside: the package goes to platlib (the wheel's root), not purelib."""

    def has_ext_modules(self):
        return True


class BinaryWheel(bdist_wheel):
    """A platform wheel that works with any Python 3: py3-none-linux_x86_64 (the libraries
    hold native code but use no Python C API)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", plat


setup(version=kiln_version(), distclass=BinaryDistribution, cmdclass={"build_py": BuildKiln, "bdist_wheel": BinaryWheel})

"""jaxlib's LAPACK custom calls (lapack_*_ffi, and its own tridiagonal_solve_perturbed_ffi) on
Kiln: JAX programs lowered for XLA:CPU (so they call jaxlib's targets) are run by the kiln
CLI on interp and cpu, and their results checked against NumPy/SciPy (the perturbed solve
against XLA:CPU too): the same factors where LAPACK's are unique (cholesky, LU, QR,
triangular solves, eigenvalues, singular values), identities where they are not (A V = V L,
U S V^H = A, Z T Z^H = A), on random well- and ill-conditioned inputs, with batch dims, in
f32, f64, complex64 and complex128. Malformed calls must fail with a located error naming
the target. KILN_CLI: the build's kiln (tests/python/CMakeLists.txt sets it)."""
import os
import subprocess

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import jax.scipy.linalg as jsl  # noqa: E402
from jax import lax  # noqa: E402
from jax._src.lax import linalg as lax_linalg  # noqa: E402 (geqrf, ormqr: not exported)

scipy_linalg = pytest.importorskip("scipy.linalg")

KILN = os.environ.get("KILN_CLI", "")
DEVICES = ["interp", "cpu"]
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
EPS = {np.float32: 1.2e-7, np.float64: 2.3e-16, np.complex64: 1.2e-7, np.complex128: 2.3e-16}


@pytest.fixture(scope="module", autouse=True)
def need_cli():
    if not KILN or not os.path.exists(KILN):
        pytest.skip("no kiln CLI (set KILN_CLI)")


def rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def conditioned(rng, shape, dtype, cond):
    """Matrices with singular values spread geometrically from 1 to 1/cond."""
    n = shape[-1]
    q1, _ = np.linalg.qr(rand(rng, shape, dtype))
    q2, _ = np.linalg.qr(rand(rng, shape, dtype))
    s = np.logspace(0, -np.log10(cond), n)
    return (q1 * s[..., None, :]) @ q2


def hermitian_pd(rng, shape, dtype):
    a = rand(rng, shape, dtype)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def run(tmp_path, device, f, *args, targets=(), env=None):
    """Lowers f for XLA:CPU, runs it with kiln on device (with env added to the
    environment), returns the results."""
    text = jax.jit(f).trace(*args).lower(lowering_platforms=("cpu",)).as_text()
    tmp_path = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
    tmp_path.mkdir()
    for t in targets:
        assert t in text, f"{t} not in the lowered program"
    path = tmp_path / "prog.mlir"
    path.write_text(text)
    cmd = [KILN, "run", str(path), "--device", device, "--output-dir", str(tmp_path)]
    for i, a in enumerate(args):
        p = tmp_path / f"in{i}.npy"
        np.save(p, np.asarray(a))
        cmd += ["--input", str(p)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})})
    assert r.returncode == 0, r.stderr
    out, k = [], 0
    while (tmp_path / f"result_{k}.npy").exists():
        out.append(np.load(tmp_path / f"result_{k}.npy"))
        k += 1
    return out


def close(got, want, dtype, scale=1.0, k=200):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = k * EPS[dtype] * scale * max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
    err = float(np.max(np.abs(got - want))) if want.size else 0.0
    assert err <= tol, f"max error {err} > {tol}"


def ct(x):
    return np.conj(np.swapaxes(x, -1, -2))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_solve_inv_det(tmp_path, device, dtype):
    rng = np.random.default_rng(1)
    spd = hermitian_pd(rng, (2, 3, 5, 5), dtype)
    (L,) = run(tmp_path, device, jnp.linalg.cholesky, spd, targets=["potrf_ffi"])
    close(L, np.linalg.cholesky(spd), dtype)
    for cond in (10.0, 1e3 if dtype in (np.float32, np.complex64) else 1e10):
        a = conditioned(rng, (2, 6, 6), dtype, cond)
        b = rand(rng, (2, 6, 3), dtype)
        x, inv, det = run(tmp_path, device, lambda a, b: (jnp.linalg.solve(a, b), jnp.linalg.inv(a), jnp.linalg.det(a)),
                          a, b, targets=["getrf_ffi", "trsm_ffi"])
        resid = np.max(np.abs(a @ x - b)) / (np.max(np.abs(a)) * max(1.0, np.max(np.abs(x))))
        assert resid < 100 * 6 * EPS[dtype]
        close(inv, np.linalg.inv(a), dtype, scale=cond)
        close(det, np.linalg.det(a), dtype, scale=cond)
    sign, logdet = run(tmp_path, device, jnp.linalg.slogdet, a)
    ws, wl = np.linalg.slogdet(a)
    close(sign, ws, dtype, scale=cond)
    close(logdet, wl, dtype, scale=cond)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_lu_and_triangular(tmp_path, device, dtype):
    rng = np.random.default_rng(2)
    a = rand(rng, (3, 5, 4), dtype)
    lu, piv, perm = run(tmp_path, device, lax.linalg.lu, a, targets=["getrf_ffi"])
    for i in range(3):
        wlu, wpiv = scipy_linalg.lu_factor(a[i])
        close(lu[i], wlu, dtype)
        np.testing.assert_array_equal(piv[i], wpiv)
    # singular (a zero pivot: LAPACK's info > 0, the factors still made), tied pivots
    s = np.array([[[1, 2, 3], [2, 4, 6], [1, 0, 1]], [[0, 1, 0], [0, 0, 1], [0, 0, 0]]], dtype)
    lu, piv, perm = run(tmp_path, device, lax.linalg.lu, s, targets=["getrf_ffi"])
    for i in range(2):
        with np.errstate(all="ignore"):
            wlu, wpiv = scipy_linalg.lu_factor(s[i], check_finite=False)
        close(lu[i], wlu, dtype)
        np.testing.assert_array_equal(piv[i], wpiv)
    t = np.triu(rand(rng, (2, 4, 4), dtype)) + 4 * np.eye(4, dtype=dtype)
    b = rand(rng, (2, 4, 3), dtype)
    for lower, trans, unit in ((True, 0, False), (False, 1, True), (False, 2, False)):
        m = ct(t) if lower else t
        (x,) = run(tmp_path, device, lambda m, b: jsl.solve_triangular(m, b, lower=lower, trans=trans, unit_diagonal=unit),
                   m, b, targets=["trsm_ffi"])
        for i in range(2):
            close(x[i], scipy_linalg.solve_triangular(m[i], b[i], lower=lower, trans=trans, unit_diagonal=unit), dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_qr(tmp_path, device, dtype):
    rng = np.random.default_rng(3)
    for shape, mode in (((2, 6, 4), "reduced"), ((4, 3), "complete"), ((3, 5), "reduced")):
        a = rand(rng, shape, dtype)
        q, r = run(tmp_path, device, lambda x: jnp.linalg.qr(x, mode=mode), a, targets=["geqrf_ffi", "qr_ffi"])
        wq, wr = np.linalg.qr(a, mode=mode)
        close(q, wq, dtype)
        close(r, wr, dtype)
    a = rand(rng, (6, 4), dtype)
    q, r, p = run(tmp_path, device, lambda x: jsl.qr(x, pivoting=True, mode="economic"), a, targets=["geqp3_ffi"])
    close(q @ r, a[:, p], dtype)
    wq, wr, wp = scipy_linalg.qr(a, pivoting=True, mode="economic")
    np.testing.assert_array_equal(p, wp)
    c = rand(rng, (6, 2), dtype)
    geqrf = run(tmp_path, device, lax_linalg.geqrf, a, targets=["geqrf_ffi"])
    (qc,) = run(tmp_path, device, lambda a, t, c: lax_linalg.ormqr(a, t, c, left=True, transpose=True), geqrf[0],
                geqrf[1], c, targets=["mqr_ffi"])
    fq, _ = np.linalg.qr(a, mode="complete")
    close(qc, ct(fq) @ c, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_svd(tmp_path, device, dtype):
    rng = np.random.default_rng(4)
    a = rand(rng, (2, 5, 5), dtype)
    h = a + ct(a)
    w, v = run(tmp_path, device, jnp.linalg.eigh, h, targets=["evd_ffi"])
    close(w, np.linalg.eigvalsh(h), dtype)
    close(h @ v, v * w[..., None, :], dtype, scale=5)
    (wv,) = run(tmp_path, device, jnp.linalg.eigvalsh, h)
    close(wv, np.linalg.eigvalsh(h), dtype)
    for shape, full in (((2, 6, 4), True), ((4, 6), False)):
        x = conditioned(rng, shape[:-2] + (max(shape[-2:]),) * 2, dtype, 1e3)[..., : shape[-2], : shape[-1]]
        u, s, vh = run(tmp_path, device, lambda x: jnp.linalg.svd(x, full_matrices=full), x, targets=["gesdd_ffi"])
        close(s, np.linalg.svd(x, compute_uv=False), dtype)
        k = s.shape[-1]
        close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], x, dtype, scale=5)
        close(ct(u) @ u, np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2), dtype, scale=5)
    (s,) = run(tmp_path, device, lambda x: jnp.linalg.svd(x, compute_uv=False), x)
    close(s, np.linalg.svd(x, compute_uv=False), dtype)
    # gesvd: the QR-iteration SVD
    u, s, vh = run(tmp_path, device, lambda x: lax.linalg.svd(x, full_matrices=False, algorithm=lax.linalg.SvdAlgorithm.QR),
                   x, targets=["gesvd_ffi"])
    close(s, np.linalg.svd(x, compute_uv=False), dtype)
    close((u * s[..., None, :]) @ vh, x, dtype, scale=5)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_eig_schur_hessenberg_tridiagonal(tmp_path, device, dtype):
    rng = np.random.default_rng(5)
    a = rand(rng, (2, 5, 5), dtype)
    w, v = run(tmp_path, device, jnp.linalg.eig, a, targets=["geev_ffi"])
    close(a @ v, v * w[..., None, :], dtype, scale=10)
    for i in range(2):
        close(np.sort_complex(w[i]), np.sort_complex(np.linalg.eigvals(a[i])), dtype, scale=10)
    t, z = run(tmp_path, device, jsl.schur, a[0], targets=["gees_ffi"])
    close(z @ t @ ct(z), a[0], dtype, scale=5)
    sub = np.tril(t, -2 if np.issubdtype(dtype, np.complexfloating) is False else -1)
    assert np.max(np.abs(sub)) == 0
    hm, q = run(tmp_path, device, lambda x: jsl.hessenberg(x, calc_q=True), a[0], targets=["gehrd_ffi"])
    close(q @ hm @ ct(q), a[0], dtype, scale=5)
    assert np.max(np.abs(np.tril(hm, -2))) == 0
    h = a + ct(a)
    arr, d, e, taus = run(tmp_path, device, lambda x: lax.linalg.tridiagonal(x, lower=True), h, targets=["trd_ffi"])
    for i in range(2):
        close(np.sort(scipy_linalg.eigvalsh_tridiagonal(d[i], np.abs(e[i]))), np.linalg.eigvalsh(h[i]), dtype, scale=5)
    dl, dd, du = rand(rng, (5,), dtype), rand(rng, (5,), dtype) + 4, rand(rng, (5,), dtype)
    dl[0] = 0
    du[-1] = 0
    b = rand(rng, (5, 2), dtype)
    (x,) = run(tmp_path, device, lax.linalg.tridiagonal_solve, dl, dd, du, b, targets=["gtsv_ffi"])
    m = np.diag(dd) + np.diag(dl[1:], -1) + np.diag(du[:-1], 1)
    close(x, np.linalg.solve(m, b), dtype, scale=10)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_tridiagonal_solve_perturbed(tmp_path, device, dtype):
    """jaxlib's own kernel (tridiagonal_solve_perturbed_ffi, not LAPACK): a batch of random
    systems, one needing row exchanges, and singular ones whose zero pivots it perturbs
    (a diagonal 0, a zero leading block, all zeros), against XLA:CPU running the same
    program, and the regular systems against NumPy."""
    rng = np.random.default_rng(8)
    n, k = 6, 3
    dl, dd, du = rand(rng, (5, n), dtype), rand(rng, (5, n), dtype) + 3, rand(rng, (5, n), dtype)
    dd[1] = rand(rng, (n,), dtype) * 1e-3  # small diagonal: row exchanges
    dl[2], du[2], dd[2] = 0, 0, rand(rng, (n,), dtype) + 2
    dd[2, 3] = 0  # a zero pivot: perturbed by eps * max |U|
    dl[3], du[3], dd[3] = 0, 0, 0  # all zeros
    dd[4, 0], du[4, 0] = 0, 0  # a zero leading row
    dl[:, 0] = 0
    du[:, -1] = 0
    b = rand(rng, (5, n, k), dtype)
    f = lambda dl, dd, du, b: lax.linalg.tridiagonal_solve(dl, dd, du, b, perturb_singular=True)  # noqa: E731
    (x,) = run(tmp_path, device, f, dl, dd, du, b, targets=["tridiagonal_solve_perturbed_ffi"])
    with jax.default_device(jax.devices("cpu")[0]):
        want = np.asarray(jax.jit(f)(dl, dd, du, b))
    for i in range(5):
        # system 4's zero pivot comes out of an elimination step as a signed zero, whose sign
        # (the perturbation's) depends on how the complex products are rounded: magnitudes
        got, ref = (np.abs(x[i]), np.abs(want[i])) if i == 4 else (x[i], want[i])
        scale = max(1.0, float(np.max(np.abs(ref))))
        assert np.max(np.abs(got - ref)) <= 16 * EPS[dtype] * scale, (i, x[i], want[i])
    for i in (0, 1):
        m = np.diag(dd[i]) + np.diag(dl[i, 1:], -1) + np.diag(du[i, :-1], 1)
        close(x[i], np.linalg.solve(m, b[i]), dtype, scale=10)
    assert np.all(np.isfinite(x[2:]))


@pytest.mark.parametrize("device", DEVICES)
def test_info_outputs(tmp_path, device):
    """Not positive definite: JAX turns potrf's info into NaNs; singular: inf determinants."""
    a = np.array([[[1.0, 2.0], [2.0, 1.0]], [[4.0, 0.0], [0.0, 9.0]]])
    (L,) = run(tmp_path, device, jnp.linalg.cholesky, a)
    assert np.all(np.isnan(np.tril(L[0]) + np.triu(np.nan * np.ones((2, 2)), 1)))
    assert np.allclose(L[1], [[2, 0], [0, 3]])
    w, v = run(tmp_path, device, jnp.linalg.eig, np.array([[1.0, np.nan], [0.0, 1.0]]))
    assert np.all(np.isnan(w))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_batch_over_threads(tmp_path, device, dtype):
    """A batch large enough for the cpu backend to share its matrices out over two threads:
    every matrix's factors and info land in its own place (one not positive definite)."""
    rng = np.random.default_rng(6)
    spd = hermitian_pd(rng, (4, 12, 16, 16), dtype)
    spd[2, 5] = -spd[2, 5]
    a = rand(rng, (48, 16, 16), dtype)
    def f(spd, a):
        h = a + jnp.conj(jnp.swapaxes(a, -1, -2))
        return jnp.linalg.cholesky(spd), jnp.linalg.eigvalsh(h), jnp.linalg.qr(a)[1], jnp.linalg.svd(a, compute_uv=False)

    L, w, r, s = run(tmp_path, device, f, spd, a, targets=["potrf_ffi", "evd_ffi", "geqrf_ffi", "gesdd_ffi"],
                     env={"KILN_CPU_THREADS": "2"})
    for i in range(4):
        for j in range(12):
            if (i, j) == (2, 5):
                assert np.all(np.isnan(L[i, j][np.tril_indices(16)]))
            else:
                close(L[i, j], np.linalg.cholesky(spd[i, j]), dtype)
    close(w, np.linalg.eigvalsh(a + ct(a)), dtype, scale=10)
    close(np.abs(r), np.abs(np.linalg.qr(a)[1]), dtype, scale=10)
    close(s, np.linalg.svd(a, compute_uv=False), dtype, scale=10)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_triangular_solve_over_threads(tmp_path, device, dtype):
    """One large triangular solve: on cpu its right-hand sides are cut into slices shared out
    over two threads (kernels.c), and every form is solved on the row-major arrays as the
    transposed problem (plan.c); each side, triangle and transposition, against SciPy."""
    rng = np.random.default_rng(7)
    n, rhs = 96, 200
    t = np.triu(rand(rng, (n, n), dtype)) / n + 2 * np.eye(n, dtype=dtype)  # well conditioned, with a unit diagonal too
    for left, lower, trans, unit in ((True, True, 0, False), (True, False, 1, True), (False, True, 2, False),
                                     (False, False, 0, True)):
        m = np.ascontiguousarray(ct(t) if lower else t)
        b = rand(rng, (n, rhs) if left else (rhs, n), dtype)
        solve = lambda m, b: lax.linalg.triangular_solve(m, b, left_side=left, lower=lower, transpose_a=trans > 0,
                                                         conjugate_a=trans == 2, unit_diagonal=unit)
        (x,) = run(tmp_path, device, solve, m, b, targets=["trsm_ffi"], env={"KILN_CPU_THREADS": "2"})
        eff = m.copy()
        if unit:
            np.fill_diagonal(eff, 1)
        opm = {0: eff, 1: eff.T, 2: ct(eff)}[trans]
        want = np.linalg.solve(opm, b) if left else np.linalg.solve(opm.T, b.T).T  # x op(m) = b
        close(x, want, dtype, scale=10)


MALFORMED = {
    "wrong element type": ("lapack_spotrf_ffi", "tensor<3x3xf64>", "(tensor<3x3xf64>, tensor<i32>)",
                           "{mhlo.backend_config = {uplo = 76 : ui8}}", "operand #0 (x) must be tensor<3x3xf32>"),
    "missing attribute": ("lapack_spotrf_ffi", "tensor<3x3xf32>", "(tensor<3x3xf32>, tensor<i32>)",
                          "{mhlo.backend_config = {}}", "needs the backend_config attribute 'uplo'"),
    "bad attribute": ("lapack_spotrf_ffi", "tensor<3x3xf32>", "(tensor<3x3xf32>, tensor<i32>)",
                      "{mhlo.backend_config = {uplo = 88 : ui8}}", "attribute 'uplo' must be"),
    "bad layout": ("lapack_spotrf_ffi", "tensor<3x3xf32>", "(tensor<3x3xf32>, tensor<i32>)",
                   "{mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 0]> : tensor<2xindex>], "
                   "result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]}",
                   "must be a permutation"),  # the verifier's rule
    "wrong results": ("lapack_sgetrf_ffi", "tensor<3x3xf32>", "(tensor<3x3xf32>, tensor<i32>)",
                      "{mhlo.backend_config = {}}", "takes 1 operands and has 3 results, not 1 and 2"),
    "not square": ("lapack_spotrf_ffi", "tensor<3x4xf32>", "(tensor<3x4xf32>, tensor<i32>)",
                   "{mhlo.backend_config = {uplo = 76 : ui8}}", "must hold square matrices"),
    "perturbed solve's operands": ("tridiagonal_solve_perturbed_ffi", "tensor<3x3xf32>", "(tensor<3x3xf32>, tensor<i32>)",
                                    "{}", "takes 4 operands and has 1 results, not 1 and 2"),
    "unknown target": ("lapack_sfoo_ffi", "tensor<3x3xf32>", "(tensor<3x3xf32>, tensor<i32>)",
                       "{mhlo.backend_config = {}}", "calls target 'lapack_sfoo_ffi', which Kiln does not implement"),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed(tmp_path, device, case):
    target, arg, res, attrs, message = MALFORMED[case]
    path = tmp_path / "bad.mlir"
    path.write_text(f"func.func @main(%x: {arg}) -> {res} {{\n"
                    f"  %0:2 = stablehlo.custom_call @{target}(%x) {attrs} : ({arg}) -> {res}\n"
                    f"  return %0#0, %0#1 : {res[1:-1]}\n}}\n")
    np.save(tmp_path / "x.npy", np.zeros([int(d) for d in arg[7:-5].split("x")], np.float32 if "f32" in arg else np.float64))
    r = subprocess.run([KILN, "run", str(path), "--device", device, "--input", str(tmp_path / "x.npy")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert message in r.stderr, r.stderr
    assert "bad.mlir:2:" in r.stderr, r.stderr  # located at the call
    assert target in r.stderr

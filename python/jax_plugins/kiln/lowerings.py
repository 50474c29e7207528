"""Lowering rules for platform "kiln" where JAX has rules only for cpu/gpu/tpu.

JAX 0.10.2 lowers most of jax.numpy.linalg / jax.scipy.linalg with platform-independent rules
(lu, cholesky, triangular_solve, the tridiagonal solver, lu_pivots_to_permutation, svd through
the QDWH polar decomposition of jax._src.tpu.linalg). What is left either has no generic rule
at all (eigh, eig, schur, hessenberg, tridiagonal, geqp3: LAPACK/cuSOLVER custom calls only),
or a "generic" rule that is a custom call only XLA itself expands (geqrf -> "Qr",
householder_product -> "ProductOfElementaryHouseholderReflectors", eigh's Jacobi -> "Eigh").
Kiln runs no LAPACK and none of XLA's expander custom calls, so for "kiln" this module lowers:

  geqrf                Householder QR (LAPACK geqr2's reflectors and taus), in lax ops
  householder_product  the Q of those reflectors (LAPACK org2r/ung2r), in lax ops
  eigh                 n <= 256 or algorithm=JACOBI: cyclic Jacobi rotations in lax ops;
                       larger: JAX's own QDWH spectral divide and conquer
                       (jax._src.tpu.linalg.eigh), whose blocks come back here
  (svd, qr, pinv, lstsq, polar, eigh-based functions then work through these)

Not covered (no platform-independent algorithm in JAX to reuse): eig, schur, hessenberg,
tridiagonal, geqp3 (pivoted QR), and the Python callbacks (debug.print, pure_callback), which
need a host callback channel in the PJRT plugin.
"""
import numpy as np

_registered = set()
EIGH_JACOBI_MAX = 256  # above: QDWH divide and conquer, as JAX's TPU rule does
JACOBI_MAX_SWEEPS = 30


def _householder(x, j, m):
    """LAPACK larfg on x[j:] of a length-m column: (v with v[j] = 1 and zeros above, tau,
    beta). H = I - tau v v^H maps x[j:] to (beta, 0, ...)."""
    import jax.numpy as jnp
    from jax import lax
    rows = lax.iota(np.int32, m)
    below = rows > j
    alpha = lax.dynamic_index_in_dim(x, j, keepdims=False)
    tail = jnp.where(below, x, jnp.zeros_like(x))
    real_dt = jnp.finfo(x.dtype).dtype
    xnorm2 = jnp.sum(jnp.real(tail * jnp.conj(tail))).astype(real_dt)
    ar = jnp.real(alpha).astype(real_dt)
    ai = jnp.imag(alpha).astype(real_dt) if jnp.iscomplexobj(x) else jnp.zeros((), real_dt)
    trivial = (xnorm2 == 0) & (ai == 0)
    norm = jnp.sqrt(ar * ar + ai * ai + xnorm2)
    beta = jnp.where(ar >= 0, -norm, norm)
    safe_beta = jnp.where(trivial, jnp.ones_like(beta), beta)
    tau = jnp.where(trivial, jnp.zeros_like(alpha), (safe_beta.astype(x.dtype) - alpha) /
                    safe_beta.astype(x.dtype))
    denom = jnp.where(trivial, jnp.ones_like(alpha), alpha - safe_beta.astype(x.dtype))
    v = jnp.where(below, tail / denom, jnp.zeros_like(x))
    v = jnp.where(rows == j, jnp.ones_like(x), v)
    beta = jnp.where(trivial, alpha, safe_beta.astype(x.dtype))
    return v, tau, beta


def geqrf_2d(a):
    """Householder QR of an m x n matrix, LAPACK's geqrf output: R on and above the diagonal,
    the reflectors' vectors below it (their leading 1 implied), and the taus."""
    import jax.numpy as jnp
    from jax import lax
    m, n = a.shape
    k = min(m, n)
    cols = lax.iota(np.int32, n)
    rows = lax.iota(np.int32, m)

    def step(j, state):
        a, taus = state
        x = lax.dynamic_index_in_dim(a, j, axis=1, keepdims=False)
        v, tau, beta = _householder(x, j, m)
        # A := H^H A on the columns right of j (H^H = I - conj(tau) v v^H)
        w = jnp.conj(v) @ a
        upd = a - jnp.conj(tau) * v[:, None] * w[None, :]
        a = jnp.where(cols[None, :] > j, upd, a)
        col = jnp.where(rows < j, x, jnp.where(rows == j, beta, v))
        a = lax.dynamic_update_index_in_dim(a, col, j, axis=1)
        taus = lax.dynamic_update_index_in_dim(taus, tau, j, axis=0)
        return a, taus

    taus = jnp.zeros((k,), a.dtype)
    if k == 0:
        return a, taus
    return lax.fori_loop(0, k, step, (a, taus))


def householder_product_2d(a, taus):
    """The first n columns of Q = H_0 H_1 ... H_{k-1} (LAPACK orgqr/ungqr)."""
    import jax.numpy as jnp
    from jax import lax
    m, n = a.shape
    k = taus.shape[0]
    rows = lax.iota(np.int32, m)
    q = jnp.eye(m, n, dtype=a.dtype)

    def step(i, q):
        j = k - 1 - i
        x = lax.dynamic_index_in_dim(a, j, axis=1, keepdims=False)
        v = jnp.where(rows > j, x, jnp.where(rows == j, jnp.ones_like(x), jnp.zeros_like(x)))
        tau = lax.dynamic_index_in_dim(taus, j, keepdims=False)
        return q - tau * v[:, None] * (jnp.conj(v) @ q)[None, :]

    if k == 0:
        return q
    return lax.fori_loop(0, k, step, q)


def _jacobi_pairs(n):
    """Round-robin order of all pairs p < q (each sweep visits each pair once)."""
    pp, qq = [], []
    for p in range(n - 1):
        for q in range(p + 1, n):
            pp.append(p)
            qq.append(q)
    return np.array(pp, np.int32), np.array(qq, np.int32)


def eigh_jacobi_2d(a, *, lower, sort_eigenvalues):
    """Eigenvalues (real, ascending when sorted) and eigenvectors of a Hermitian matrix given
    by its lower (or upper) triangle, by cyclic Jacobi rotations until the off-diagonal part
    is below eps relative to the matrix norm."""
    import jax.numpy as jnp
    from jax import lax
    n = a.shape[0]
    dt = a.dtype
    real_dt = jnp.finfo(dt).dtype
    # only the given triangle counts; the diagonal of a Hermitian matrix is real
    strict = jnp.tril(a, -1) if lower else jnp.triu(a, 1)
    a = strict + jnp.conj(strict.T) + jnp.diag(jnp.real(jnp.diagonal(a)).astype(dt))
    v = jnp.eye(n, dtype=dt)
    if n <= 1:
        return v, jnp.real(jnp.diagonal(a)).astype(real_dt)
    pp, qq = _jacobi_pairs(n)
    npairs = len(pp)
    pp, qq = jnp.asarray(pp), jnp.asarray(qq)
    eps = jnp.finfo(real_dt).eps
    total = jnp.sqrt(jnp.sum(jnp.real(a * jnp.conj(a)))).astype(real_dt)
    tol = (eps * total) ** 2
    offmask = ~jnp.eye(n, dtype=bool)

    def off2(a):
        return jnp.sum(jnp.where(offmask, jnp.real(a * jnp.conj(a)), 0)).astype(real_dt)

    def rotate(i, state):
        a, v = state
        p = pp[i]
        q = qq[i]
        apq = a[p, q]
        app = jnp.real(a[p, p]).astype(real_dt)
        aqq = jnp.real(a[q, q]).astype(real_dt)
        mag = jnp.abs(apq).astype(real_dt)
        skip = mag <= eps * eps * jnp.maximum(total, jnp.finfo(real_dt).tiny)
        safe = jnp.where(skip, jnp.ones_like(mag), mag)
        theta = (aqq - app) / (2 * safe)
        t = jnp.where(theta >= 0, 1, -1).astype(real_dt) / (
            jnp.abs(theta) + jnp.sqrt(1 + theta * theta))
        c = 1 / jnp.sqrt(1 + t * t)
        s = t * c
        c = jnp.where(skip, jnp.ones_like(c), c)
        s = jnp.where(skip, jnp.zeros_like(s), s)
        w = jnp.conj(apq) / safe.astype(dt)  # the phase (a sign when real) of a_pq, undone
        w = jnp.where(skip, jnp.ones_like(w), w)
        c_, s_ = c.astype(dt), s.astype(dt)
        # U on columns p, q: col p <- c a_p - s w a_q ; col q <- s a_p + c w a_q
        up = (c_, -s_ * w)
        uq = (s_, c_ * w)
        colp, colq = a[:, p], a[:, q]
        a = a.at[:, p].set(up[0] * colp + up[1] * colq).at[:, q].set(uq[0] * colp + uq[1] * colq)
        rowp, rowq = a[p, :], a[q, :]
        a = a.at[p, :].set(jnp.conj(up[0]) * rowp + jnp.conj(up[1]) * rowq)
        a = a.at[q, :].set(jnp.conj(uq[0]) * rowp + jnp.conj(uq[1]) * rowq)
        a = a.at[p, q].set(0).at[q, p].set(0)
        vp, vq = v[:, p], v[:, q]
        v = v.at[:, p].set(up[0] * vp + up[1] * vq).at[:, q].set(uq[0] * vp + uq[1] * vq)
        return a, v

    def sweep(state):
        a, v, k = state
        a, v = lax.fori_loop(0, npairs, rotate, (a, v))
        return a, v, k + 1

    def more(state):
        a, _, k = state
        return (k < JACOBI_MAX_SWEEPS) & (off2(a) > tol)

    a, v, _ = lax.while_loop(more, sweep, (a, v, jnp.int32(0)))
    w = jnp.real(jnp.diagonal(a)).astype(real_dt)
    if sort_eigenvalues:
        order = jnp.argsort(w)
        w = w[order]
        v = v[:, order]
    return v, w


def _eigh_impl(x, *, lower, sort_eigenvalues, subset_by_index):
    import jax
    import jax.numpy as jnp
    n = x.shape[-1]
    fn = lambda m: eigh_jacobi_2d(m, lower=lower,
                                  sort_eigenvalues=sort_eigenvalues or subset_by_index is not None)
    for _ in range(x.ndim - 2):
        fn = jax.vmap(fn)
    v, w = fn(x)
    if subset_by_index is not None and tuple(subset_by_index) != (0, n):
        lo, hi = subset_by_index
        v, w = v[..., :, lo:hi], w[..., lo:hi]
    return v, w.astype(jnp.finfo(x.dtype).dtype)


def _batched(fn, core_ndims):
    import jax

    def wrapped(*args):
        f = fn
        for _ in range(args[0].ndim - core_ndims[0]):
            f = jax.vmap(f)
        return f(*args)
    return wrapped


def register(platform="kiln"):
    """Registers the rules for `platform`; safe to call more than once. JAX accepts rules only
    for platforms it knows, so before the plugin is registered (PJRT_NAMES_AND_LIBRARY_PATHS
    registers it after the jax_plugins modules are initialised) this waits for JAX's
    plugin-registration callback."""
    from jax._src import xla_bridge as xb
    if platform in _registered:
        return
    if not xb.is_known_platform(platform):
        xb.register_plugin_callbacks(lambda **_: _register_now(platform))
        return
    _register_now(platform)


def _register_now(platform):
    from jax._src import xla_bridge as xb
    from jax._src.interpreters import mlir
    from jax._src.lax import linalg as lax_linalg
    if platform in _registered or not xb.is_known_platform(platform):
        return
    _registered.add(platform)

    def geqrf_rule(ctx, a):
        return mlir.lower_fun(_batched(geqrf_2d, (2,)), multiple_results=True)(ctx, a)

    def householder_rule(ctx, a, taus):
        return [mlir.lower_fun(_batched(householder_product_2d, (2, 1)),
                               multiple_results=False)(ctx, a, taus)]

    def eigh_rule(ctx, x, *, lower, sort_eigenvalues, subset_by_index, algorithm=None):
        n = ctx.avals_in[0].shape[-1]
        impl = lax_linalg.EighImplementation
        if algorithm in (impl.JACOBI, impl.QR) or n <= EIGH_JACOBI_MAX:
            return mlir.lower_fun(_eigh_impl, multiple_results=True)(
                ctx, x, lower=lower, sort_eigenvalues=sort_eigenvalues,
                subset_by_index=subset_by_index)
        from jax._src.tpu.linalg import eigh as tpu_eigh
        return mlir.lower_fun(tpu_eigh._eigh_qdwh_impl, multiple_results=True)(
            ctx, x, lower=lower, sort_eigenvalues=sort_eigenvalues,
            subset_by_index=subset_by_index)

    mlir.register_lowering(lax_linalg.geqrf_p, geqrf_rule, platform=platform)
    mlir.register_lowering(lax_linalg.householder_product_p, householder_rule,
                           platform=platform)
    mlir.register_lowering(lax_linalg.eigh_p, eigh_rule, platform=platform)

"""Lowering rules for platform "kiln": JAX's linear algebra as it lowers for XLA:CPU.

JAX keeps platform-specific lowering rules for a few primitives. A platform it does not know,
such as "kiln", gets the generic rule instead, and for the linear algebra of jax.lax.linalg
there either is none (eig, schur, hessenberg, tridiagonal, geqp3: LAPACK/cuSOLVER custom
calls only) or one that is a custom call only XLA itself expands (geqrf -> "Qr", eigh ->
"Eigh", householder_product).

Kiln's devices run jaxlib's LAPACK targets (`lapack_<t><routine>_ffi`, backends/lapack), so
this module registers, for "kiln", JAX's own cpu rule of every jax.lax.linalg primitive: a
jitted jnp.linalg / jax.scipy.linalg function is the same program on Kiln as on XLA:CPU. The
other cpu-only rules of jax 0.10.2 are XLA:CPU workarounds Kiln does not need, and they are
left to JAX's generic rules: dot_general's refusal of dot algorithms XLA:CPU ignores (Kiln
honours them), complex convolutions expanded into real ones, threefry2x32 as a rolled loop
(the unrolled generic form runs faster on Kiln), select_and_scatter_add with its padding
expanded, and the host callbacks (debug_callback, debug_print: a host-callback channel the
plugin does not offer; JAX then reports them as unsupported on kiln).
"""
_registered = set()


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


def cpu_rules():
    """{primitive: rule entry} of JAX's cpu lowering rules for the jax.lax.linalg primitives."""
    from jax._src.interpreters import mlir
    from jax._src.lax import linalg as lax_linalg
    linalg = {id(v) for v in vars(lax_linalg).values()}
    return {p: r for p, r in mlir._platform_specific_lowerings["cpu"].items() if id(p) in linalg}


def _register_now(platform):
    from jax._src import xla_bridge as xb
    from jax._src.interpreters import mlir
    if platform in _registered or not xb.is_known_platform(platform):
        return
    _registered.add(platform)
    for prim, entry in cpu_rules().items():
        # jax 0.10.2 stores (rule, inline) entries; older ones the bare rule
        rule, inline = getattr(entry, "rule", entry), getattr(entry, "inline", True)
        mlir.register_lowering(prim, rule, platform=platform, inline=inline)

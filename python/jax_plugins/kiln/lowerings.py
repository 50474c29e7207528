"""Lowering rules for platform "kiln": the programs JAX sends Kiln are the ones it sends XLA:CPU.

JAX keeps platform-specific lowering rules for a few primitives (jax 0.10.2 on cpu: the
linear algebra of jax.lax.linalg, dot_general and conv_general_dilated's mixed and fp8
types, threefry2x32, random_gamma, select_and_scatter_add, the host callbacks). A platform it
does not know, such as "kiln", gets the generic rule instead, and for linear algebra there is
none that runs (eig, schur, ... have only LAPACK/cuSOLVER custom calls) or one that is a
custom call only XLA itself expands (geqrf -> "Qr", eigh -> "Eigh").

Kiln's devices run what XLA:CPU's programs contain, jaxlib's LAPACK targets
(`lapack_<t><routine>_ffi`) included, so this module registers, for "kiln", JAX's own cpu rule
of every primitive that has one, but the host callbacks (debug_callback, debug_print: they
embed a host function pointer for a channel the plugin does not offer; JAX's generic rule
then reports them as unsupported). A jitted function thus lowers to the same program on Kiln
as on XLA:CPU, and runs at Kiln's speed for that program.
"""
_registered = set()

# cpu rules not copied: they call back into Python through XLA:CPU's host-callback channel
HOST_CALLBACKS = frozenset({"debug_callback", "debug_print"})


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
    """{primitive: rule entry} of JAX's cpu-specific lowering rules that Kiln takes over. The
    modules that register them are imported first (jax.numpy imports them all)."""
    import jax.numpy  # noqa: F401 (lax.linalg, random, windowed reductions: their rules)
    from jax._src.interpreters import mlir
    return {p: r for p, r in mlir._platform_specific_lowerings["cpu"].items()
            if str(p) not in HOST_CALLBACKS}


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

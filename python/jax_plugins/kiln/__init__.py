"""Kiln as a JAX device: the PJRT plugin `kiln` (libkiln_pjrt.so and Kiln's backends).

JAX imports this module through the `jax_plugins` entry point (or the `jax_plugins`
namespace package) and calls initialize(), which only registers the plugin: the library is
loaded, and Kiln's client made, when JAX first needs its backends.

Selecting it:

    JAX_PLATFORMS=kiln python ...          only Kiln (jax.devices() lists Kiln's device)
    JAX_PLATFORMS=kiln,cpu python ...      Kiln by default, XLA:CPU beside it
                                           (jax.jit(f, backend="cpu"), jax.devices("cpu"))

With JAX_PLATFORMS unset Kiln is registered below XLA:CPU, so installing the package does not
change JAX's default device; `jax.devices("kiln")` and `jax.default_device` reach it, and
KILN_JAX_PRIORITY=500 makes it the default. A Kiln that fails to start is then reported and
passed over instead of stopping JAX.

Which Kiln backend runs (cpu, interp, ...) is Kiln's own ordered device list with fallback:
KILN_DEVICE=cpu,interp (an override for a person at a terminal), else configure(devices=...)
or configure(config_file=...) called before JAX makes its backends, else a config file named
by KILN_CONFIG, else Kiln's default (cpu,interp). They reach the plugin as the PJRT client
create options `devices` and `config_file` (also settable with JAX's
`jax_pjrt_client_create_options="devices:interp"`).

Several devices: configure(num_devices=4) (the create option `num_devices`), or
KILN_CPU_DEVICES=4 for the cpu backend, shares the host's cores out among 4 Kiln devices,
as XLA's --xla_force_host_platform_device_count does: jax.devices() lists them, and
jax.device_put / jit place arrays and programs on any one, and programs sharded over
several of them (NamedSharding, shard_map, pmap) are partitioned by Kiln and run on all at
once. One process only: jax.distributed is not supported yet.

Development without installing: PJRT_NAMES_AND_LIBRARY_PATHS=kiln:/abs/build/libkiln_pjrt.so
registers a tree's build (this module then leaves the registration to JAX, and only adds its
lowering rules when it is importable, e.g. with PYTHONPATH=python). KILN_PJRT_LIBRARY=/abs/...
makes this module register that library instead of its own.
"""
import logging
import os

__all__ = ["initialize", "configure", "library_path", "PLATFORM"]

PLATFORM = "kiln"
_HERE = os.path.dirname(os.path.abspath(__file__))
_DEFAULT_PRIORITY = -100  # below XLA:CPU (0): opt-in unless KILN_JAX_PRIORITY says otherwise
_config = {}
_log = logging.getLogger(__name__)


def library_path():
    """The PJRT plugin this module registers: KILN_PJRT_LIBRARY, else the one it carries."""
    return os.environ.get("KILN_PJRT_LIBRARY") or os.path.join(_HERE, "lib", "libkiln_pjrt.so")


def kiln_executable():
    """The `kiln` CLI carried beside the plugin (`kiln devices` explains the device choice)."""
    return os.path.join(_HERE, "bin", "kiln")


def configure(*, devices=None, config_file=None, num_devices=None):
    """Kiln's device list for JAX's client: `devices` a list or comma-separated string in
    order of preference ("cuda,cpu,interp": the first that can run here), `config_file` a
    Kiln config file (`devices = ...`, `plugin_path = ...`), `num_devices` how many devices
    to open (a positive int; cpu: the cores shared out among them; default KILN_CPU_DEVICES,
    else 1). Takes effect only when called before JAX makes its backends (the first
    jax.devices(), jit or array). KILN_DEVICE, when set, still overrides the list."""
    if devices is not None:
        _config["devices"] = devices if isinstance(devices, str) else ",".join(devices)
    if config_file is not None:
        _config["config_file"] = os.path.abspath(config_file)
    if num_devices is not None:
        if isinstance(num_devices, bool) or not isinstance(num_devices, int) or num_devices < 1:
            raise ValueError(f"kiln.configure: num_devices must be a positive int, not {num_devices!r}")
        _config["num_devices"] = num_devices


def _create_options():
    """The PJRT_Client_Create options, read when JAX makes the client."""
    opts = {}
    if _config.get("devices"):
        opts["devices"] = _config["devices"]
    if _config.get("num_devices"):
        opts["num_devices"] = _config["num_devices"]
    cfg = _config.get("config_file") or os.environ.get("KILN_CONFIG")
    if cfg:
        opts["config_file"] = os.path.abspath(cfg)
    return opts


def _registered_from_env():
    spec = os.environ.get("PJRT_NAMES_AND_LIBRARY_PATHS", "")
    return any(item.split(":", 1)[0].strip() == PLATFORM for item in spec.split(",") if item)


def _priority():
    try:
        return int(os.environ.get("KILN_JAX_PRIORITY", _DEFAULT_PRIORITY))
    except ValueError:
        return _DEFAULT_PRIORITY


def _enable_donation():
    """JAX lowers donate_argnums only for the platforms it lists (jax._src.interpreters.mlir
    ._platforms_with_donation; others get a warning and copies). Kiln consumes donated
    arguments (the PJRT buffer is deleted) and the cpu backend writes results into them,
    so "kiln" joins the list."""
    try:
        from jax._src.interpreters import mlir
        if PLATFORM not in mlir._platforms_with_donation:
            mlir._platforms_with_donation.append(PLATFORM)
    except Exception:  # a JAX whose internals moved: donation stays off, results the same
        _log.warning("kiln: could not enable buffer donation", exc_info=True)


def initialize():
    """Called by JAX at start-up: gives "kiln" JAX's cpu lowering rules of linear algebra
    (jax_plugins.kiln.lowerings), then registers libkiln_pjrt.so as platform "kiln".
    Cheap: nothing is loaded until JAX makes its backends."""
    from jax._src import xla_bridge as xb

    try:
        from . import lowerings
        lowerings.register(PLATFORM)
    except Exception:  # a JAX whose internals moved: the plugin still works without them
        _log.warning("kiln: could not add the linalg lowering rules for Kiln", exc_info=True)
    _enable_donation()

    if _registered_from_env() or PLATFORM in xb._backend_factories:
        return  # PJRT_NAMES_AND_LIBRARY_PATHS names a build of Kiln: JAX registers that one
    path = library_path()
    if not os.path.exists(path):
        _log.warning("kiln: %s is missing; the kiln platform is not registered", path)
        return
    xb.register_plugin(PLATFORM, priority=_priority(), library_path=path,
                       options=_create_options)
    # register_plugin always fails loudly. When the user did not ask for Kiln
    # (JAX_PLATFORMS unset), a Kiln that cannot start is reported and passed over instead of
    # stopping JAX; JAX_PLATFORMS=kiln still fails loudly (JAX's own rule for listed ones).
    try:
        import dataclasses
        reg = xb._backend_factories[PLATFORM]
        if dataclasses.is_dataclass(reg):
            xb._backend_factories[PLATFORM] = dataclasses.replace(reg, fail_quietly=True)
        elif hasattr(reg, "_replace"):
            xb._backend_factories[PLATFORM] = reg._replace(fail_quietly=True)
    except Exception:
        pass

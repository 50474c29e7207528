"""Kiln's C API (include/kiln/kiln.h) from Python through ctypes, for the benchmarks only: a
program run by Kiln's runtime directly, in the process where JAX runs it through the PJRT
plugin, so that the two are timed side by side (peers.py, JAX on Kiln).

The library is the libkiln.so beside libkiln_pjrt.so: dlopen gives the plugin's own copy,
so both clients share the cpu backend and its thread pool."""
import ctypes
import os

import numpy as np

# kiln_element_type of the NumPy dtypes the zoo uses (include/kiln/kiln.h)
_TYPES = {"bool": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "uint8": 6, "uint16": 7,
          "uint32": 8, "uint64": 9, "float16": 10, "float32": 11, "float64": 12,
          "bfloat16": 13, "complex64": 14, "complex128": 15}


class _ClientOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("devices", ctypes.c_char_p),
                ("plugin_paths", ctypes.c_void_p), ("num_plugin_paths", ctypes.c_int32),
                ("config_file", ctypes.c_char_p), ("flags", ctypes.c_uint32),
                ("num_devices", ctypes.c_int32)]


class _BufferArgs(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("element_type", ctypes.c_int),
                ("rank", ctypes.c_int32), ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p), ("byte_size", ctypes.c_size_t)]


class _ExecuteArgs(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("inputs", ctypes.POINTER(ctypes.c_void_p)),
                ("num_inputs", ctypes.c_int32), ("out_results", ctypes.POINTER(ctypes.c_void_p)),
                ("num_results", ctypes.c_int32), ("flags", ctypes.c_uint32),
                ("donate", ctypes.c_void_p)]


class Runner:
    """One program (MLIR text or a StableHLO artifact's bytes) compiled for the first device
    of `devices` (a Kiln device list; KILN_DEVICE is ignored) and its inputs on that device:
    run() executes it once and waits for its results. Raises RuntimeError with Kiln's
    message on any error."""

    def __init__(self, library, program, inputs, num_results, devices="cpu"):
        lib = self.lib = ctypes.CDLL(library)
        for name in ("kiln_client_create", "kiln_program_create", "kiln_program_compile",
                     "kiln_buffer_create", "kiln_executable_execute", "kiln_event_wait",
                     "kiln_client_device"):
            getattr(lib, name).restype = ctypes.c_void_p  # a kiln_status or a handle
        lib.kiln_status_message.restype = ctypes.c_char_p
        self.client, self.program, self.exe, self.buffers = ctypes.c_void_p(), ctypes.c_void_p(), \
            ctypes.c_void_p(), []
        opts = _ClientOptions(ctypes.sizeof(_ClientOptions), devices.encode(), None, 0, None,
                              1, 0)  # flags: KILN_CLIENT_IGNORE_ENV
        self._check(lib.kiln_client_create(ctypes.byref(opts), ctypes.byref(self.client)))
        device = ctypes.c_void_p(lib.kiln_client_device(self.client, 0))
        data = program.encode() if isinstance(program, str) else program
        self._check(lib.kiln_program_create(data, ctypes.c_size_t(len(data)), None,
                                            ctypes.byref(self.program)))
        self._check(lib.kiln_program_compile(self.program, device, None, ctypes.byref(self.exe)))
        for a in inputs:
            a = np.require(a, requirements="C")  # keeps 0-d arrays 0-d
            dims = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
            args = _BufferArgs(ctypes.sizeof(_BufferArgs), _TYPES[a.dtype.name], a.ndim, dims,
                               a.ctypes.data, a.nbytes)
            b = ctypes.c_void_p()
            self._check(lib.kiln_buffer_create(device, ctypes.byref(args), ctypes.byref(b)))
            self.buffers.append(b)
        self.ins = (ctypes.c_void_p * max(len(inputs), 1))(*[b.value for b in self.buffers])
        self.outs = (ctypes.c_void_p * max(num_results, 1))()
        self.args = _ExecuteArgs(ctypes.sizeof(_ExecuteArgs), self.ins, len(inputs), self.outs,
                                 num_results, 0, None)
        self.num_results = num_results

    def _check(self, status):
        if status:
            msg = self.lib.kiln_status_message(ctypes.c_void_p(status))
            self.lib.kiln_status_free(ctypes.c_void_p(status))
            raise RuntimeError("kiln: " + (msg or b"").decode(errors="replace"))

    def run(self):
        event = ctypes.c_void_p()
        self._check(self.lib.kiln_executable_execute(self.exe, ctypes.byref(self.args),
                                                     ctypes.byref(event)))
        status = self.lib.kiln_event_wait(event)
        self.lib.kiln_event_release(event)
        for i in range(self.num_results):
            self.lib.kiln_buffer_release(ctypes.c_void_p(self.outs[i]))
        self._check(status)

    def close(self):
        for b in self.buffers:
            self.lib.kiln_buffer_release(b)
        self.buffers = []
        for name, h in (("kiln_executable_release", self.exe), ("kiln_program_release", self.program),
                        ("kiln_client_release", self.client)):
            if h:
                getattr(self.lib, name)(h)


def library_beside(pjrt_path):
    """The libkiln.so the PJRT plugin loads (its soname, beside it in a build or a wheel)."""
    d = os.path.dirname(os.path.abspath(pjrt_path))
    for name in ("libkiln.so.0", "libkiln.so"):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    raise FileNotFoundError(f"no libkiln.so beside {pjrt_path}")

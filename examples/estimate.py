#!/usr/bin/env python3
"""estimate.py: libvramfit from Python's standard library only (ctypes).

Estimates Llama-3.1-8B-Instruct serving 8,192-token chats and prints the model, the
budget and the fit rows from the JSON report. The library is found through
VRAMFIT_LIB (a path to libvramfit.so), else the system's loader (ctypes.util).
"""
import ctypes
import ctypes.util
import json
import os
import sys

SCENARIO = b"""return { name = "chat-8b", model = "meta-llama/Llama-3.1-8B-Instruct", dtype = "bf16",
  workload = { kind = "inference", context = 8192, concurrency = 4 } }
"""


class Request(ctypes.Structure):
    """struct vf_request of include/vramfit.h."""
    _fields_ = [("sets", ctypes.POINTER(ctypes.c_char_p)), ("n_sets", ctypes.c_size_t),
                ("gpus", ctypes.POINTER(ctypes.c_char_p)), ("n_gpus", ctypes.c_size_t),
                ("format", ctypes.c_int), ("fit", ctypes.c_int)]


def load():
    path = os.environ.get("VRAMFIT_LIB") or ctypes.util.find_library("vramfit")
    if not path:
        sys.exit("estimate.py: libvramfit not found (set VRAMFIT_LIB)")
    lib = ctypes.CDLL(path)
    lib.vf_engine_new.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.vf_engine_free.argtypes = [ctypes.c_void_p]
    lib.vf_engine_error.argtypes = [ctypes.c_void_p]
    lib.vf_engine_error.restype = ctypes.c_char_p
    lib.vf_status_message.restype = ctypes.c_char_p
    lib.vf_version.restype = ctypes.c_char_p
    lib.vf_estimate_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                       ctypes.POINTER(Request), ctypes.POINTER(ctypes.c_char_p)]
    return lib


def estimate(lib, engine, text, gpus):
    arr = (ctypes.c_char_p * len(gpus))(*[g.encode() for g in gpus])
    req = Request(None, 0, arr, len(gpus), 0, 1)
    out = ctypes.c_char_p()
    st = lib.vf_estimate_string(engine, text, len(text), b"chat.lua", ctypes.byref(req), ctypes.byref(out))
    if st != 0:
        raise RuntimeError("%s: %s" % (lib.vf_status_message(st).decode(), lib.vf_engine_error(engine).decode()))
    return json.loads(out.value.decode())  # copied before the next call on this engine


def main():
    lib = load()
    engine = ctypes.c_void_p()
    st = lib.vf_engine_new(None, ctypes.byref(engine))
    if st != 0:
        sys.exit("estimate.py: %s" % lib.vf_status_message(st).decode())
    try:
        report = estimate(lib, engine, SCENARIO, ["L40S", "RTX-4090-24GB"])
        try:
            estimate(lib, engine, b'return { model = "no/such-model" }', [])
        except RuntimeError as err:
            print("bad model: %s" % err)
    finally:
        lib.vf_engine_free(engine)
    print("vramfit %s" % lib.vf_version().decode())
    print("model %s (%s)" % (report["model"]["id"], report["model"]["arch"]))
    print("params %d" % report["model"]["params"])
    print("weight_bytes %d" % report["model"]["weight_bytes"])
    dev = report["devices"][0]
    for c in dev["categories"]:
        print("  %-18s %15d B  %s" % (c["name"], c["bytes"], c["basis"]))
    print("total_bytes %d on %s" % (dev["total_bytes"], dev["gpu"]))
    for f in report["fit"]:
        print("fit %s %s used %.1f%% count %d" % (f["gpu"], "yes" if f["fits"] else "no",
                                                  100 * f["used_fraction"], f["count"]))


if __name__ == "__main__":
    main()

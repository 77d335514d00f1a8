"""Stand-ins for the browser's modules, for tests that import the page's Python natively in a
subprocess: `STAND_INS` is Python source that puts `js`, `pyodide` and `pyodide.ffi` in
sys.modules, whose every attribute is an object that answers anything (they are only touched
when the page runs)."""

STAND_INS = """
import sys, types

class Anything:
    def __getattr__(self, name): return Anything()
    def __call__(self, *args, **kwargs): return Anything()

js = types.ModuleType("js")
js.__getattr__ = lambda name: Anything()
ffi = types.ModuleType("pyodide.ffi")
ffi.__getattr__ = lambda name: Anything
pyodide = types.ModuleType("pyodide")
pyodide.ffi = ffi
sys.modules.update({"js": js, "pyodide": pyodide, "pyodide.ffi": ffi})
"""

"""The zoo's model list without importing JAX (pytest collects before the plugin is set up)."""
import ast
import os

ZOO = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "bench", "models", "zoo.py")


def names(sizes):
    tree = ast.parse(open(ZOO).read())
    kinds = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "KINDS":
            kinds = ast.literal_eval(node.value)
    assert kinds, "KINDS not found in zoo.py"
    import pytest
    out = []
    for kind, dtypes in kinds:
        for size in sizes:
            for dt in dtypes:
                name = f"{kind}_{size}" + ("" if dt == "f32" else f"_{dt}")
                out.append(pytest.param((kind, size, dt), id=name))
    return out

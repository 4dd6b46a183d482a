"""Count reads of another module's private fields inside dnnl/.

A use counts when its attribute starts with one underscore (dunders are
Python's, not ours), its receiver is neither ``self``/``cls`` nor an imported
module, and the attribute is defined in another file (assigned on ``self``,
in a class body or in ``__slots__``) and not in this one.  Same-module access
between instances of one class (``other._dims`` in ``__eq__``) is fine.

    python tools/private_access.py [--list] [ROOT]
"""
import ast
import pathlib
import sys


def private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def definitions(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("setattr", "getattr"):
            if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                names.add(node.args[1].value)
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if getattr(target, "id", None) == "__slots__" and isinstance(node.value, (ast.Tuple, ast.List)):
                    names.update(e.value for e in node.value.elts if isinstance(e, ast.Constant))
    return {n for n in names if isinstance(n, str) and private(n)}


def pyx_definitions(text):
    """Fields and methods a .pyx/.pxd file defines (cdef attributes, def/cdef/cpdef names)."""
    import re
    names = set(re.findall(r"\b(?:def|cpdef|class)\s+(?:[\w\[\], *]+\s+)?(_\w+)\s*\(", text))
    names |= set(re.findall(r"\bcdef\s+(?:public\s+|readonly\s+)?[\w.\[\], *]+\s+(_\w+)\s*$", text, re.M))
    names |= set(re.findall(r"self\.(_\w+)\s*=", text))
    return {n for n in names if private(n)}


def modules_imported(tree, path, top):
    """Names this file binds to modules (``import x``, ``from . import _kernels``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = path.parent if node.level else top
            for _ in range(node.level - 1):
                base = base.parent
            for part in node.module.split(".") if node.module else ():
                base = base / part
            for alias in node.names:
                found = [base / (alias.name + ".py"), base / (alias.name + ".pyx"), base / alias.name / "__init__.py"]
                if any(c.exists() for c in found):
                    names.add(alias.asname or alias.name)
    return names


def count(root):
    root = pathlib.Path(root).resolve()
    files = sorted(p for p in root.rglob("*.py") if "build" not in p.parts)
    trees = {p: ast.parse(p.read_text(), str(p)) for p in files}
    defined = {p: definitions(t) for p, t in trees.items()}
    for p in list(root.rglob("*.pyx")) + list(root.rglob("*.pxd")):
        defined[p] = pyx_definitions(p.read_text())
    uses = []
    for path, tree in trees.items():
        mods = modules_imported(tree, path, root.resolve().parent)
        mine = defined[path]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not private(node.attr):
                continue
            receiver = node.value
            if isinstance(receiver, ast.Name) and (receiver.id in ("self", "cls") or receiver.id in mods):
                continue
            if node.attr in mine:
                continue
            if any(node.attr in names for other, names in defined.items() if other != path):
                uses.append((path.relative_to(root.parent), node.lineno, ast.unparse(node)))
    return uses + count_pyx(root, defined)


def count_pyx(root, defined):
    """The same count over Cython sources, by pattern (they are not Python
    syntax): ``name._field`` where ``name`` is not self/cls or a module the
    file imports, and ``_field`` is defined in another file only."""
    import re
    uses = []
    for path in sorted(root.rglob("*.pyx")):
        if "build" in path.parts:
            continue
        text = path.read_text()
        mods = set(re.findall(r"^\s*(?:c?import\s+[\w.]+\s+as\s+(\w+)|c?import\s+(\w+))", text, re.M))
        mods = {a or b for a, b in mods}
        mods |= set(re.findall(r"^from\s+[\w.]+\s+c?import\s+.*?\bas\s+(\w+)", text, re.M))
        mods |= {m for line in re.findall(r"^from\s+[\w.]+\s+c?import\s+(.*)$", text, re.M)
                 for m in re.findall(r"\b(_\w+|[a-z]\w*)\b", line)}
        mine = defined.get(path, set())
        # docstrings out (their newlines kept, for the line numbers)
        code_text = re.sub(r'"""(.|\n)*?"""', lambda m: "\n" * m.group(0).count("\n"), text)
        for n, line in enumerate(code_text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.match(r"\s*(from|import|cimport)\b", code):
                continue
            for recv, attr in re.findall(r"\b(\w+)\.(_[A-Za-z]\w*)", code):
                if recv in ("self", "cls") or recv in mods or attr in mine or attr.startswith("__"):
                    continue
                if any(attr in names for other, names in defined.items() if other != path):
                    uses.append((path.relative_to(root.parent), n, recv + "." + attr))
    return uses


def main(argv):
    show = "--list" in argv
    args = [a for a in argv if a != "--list"]
    root = args[0] if args else pathlib.Path(__file__).resolve().parent.parent / "dnnl"
    uses = count(root)
    if show:
        for path, line, text in uses:
            print(f"{path}:{line}: {text}")
    by_file = {}
    for path, _, _ in uses:
        by_file[str(path)] = by_file.get(str(path), 0) + 1
    for name, n in sorted(by_file.items(), key=lambda kv: -kv[1]):
        print(f"{n:4d}  {name}")
    print(f"{len(uses):4d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""No logging call may pass a reserved LogRecord attribute in ``extra=``.

``Logger.makeRecord`` raises KeyError for ``extra={"thread": ...}`` (or name, msg, lineno, ...),
but only when the level is enabled: the tests run at WARNING, the bot at INFO, so such a call
passed every test and crashed the lobby's Start button in production. This walks the source of
the whole project instead of relying on a test to hit each call at the right level.

What it resolves: dict literals, names bound to dict literals in the same function, ``**name``
spreads of those, and a function's own ``**kwargs`` (then every call of that function by name
is checked for its keyword names, as ``log_played(..., user=..., request=...)``). Anything else
passed as ``extra`` fails the test as "cannot check", so a new pattern is looked at, not waved
through.
"""

from __future__ import annotations

import ast
from pathlib import Path

from cogs.utils.logfmt import RESERVED_KEYS

ROOT = Path(__file__).resolve().parent.parent
LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "log"}


def project_files() -> list[Path]:
    return [p for p in sorted(ROOT.rglob("*.py"))
            if not any(part.startswith(".") or part in ("__pycache__", "node_modules")
                       for part in p.relative_to(ROOT).parts)]


class _Checker:
    """Collects (where, key) for every reserved key and (where, why) for every unresolvable extra."""

    def __init__(self) -> None:
        self.bad: list[str] = []
        self.unknown: list[str] = []
        self.checked = 0
        #: function name -> where its **kwargs reach an ``extra`` (checked at its call sites)
        self.forwarders: dict[str, str] = {}

    def check_tree(self, tree: ast.AST, where: str) -> None:
        scopes: list[ast.AST] = [tree, *[n for n in ast.walk(tree)
                                         if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]]
        for scope in scopes:
            self._check_scope(scope, where)

    def _own_nodes(self, scope: ast.AST) -> list[ast.AST]:
        """Nodes of ``scope`` not inside a nested function (those are scopes of their own)."""
        out: list[ast.AST] = []
        todo = list(ast.iter_child_nodes(scope))
        while todo:
            node = todo.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            out.append(node)
            todo.extend(ast.iter_child_nodes(node))
        return out

    def _check_scope(self, scope: ast.AST, where: str) -> None:
        nodes = self._own_nodes(scope)
        bound: dict[str, list[ast.expr]] = {}
        for node in nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        bound.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                bound.setdefault(node.target.id, []).append(node.value)
        kwargs_name = None
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) and scope.args.kwarg is not None:
            kwargs_name = scope.args.kwarg.arg
        for node in nodes:
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in LOG_METHODS):
                continue
            for kw in node.keywords:
                if kw.arg == "extra":
                    self.checked += 1
                    at = f"{where}:{node.lineno}"
                    self._keys(kw.value, bound, kwargs_name, scope, at, set())

    def _keys(self, value: ast.expr, bound: dict[str, list[ast.expr]], kwargs_name: str | None,
              scope: ast.AST, at: str, seen: set[str]) -> None:
        if isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values, strict=True):
                if key is None:  # **spread
                    self._keys(item, bound, kwargs_name, scope, at, seen)
                elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                    if key.value in RESERVED_KEYS:
                        self.bad.append(f"{at}: extra key {key.value!r}")
                else:
                    self.unknown.append(f"{at}: a computed key")
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
                and not value.args:
            for kw in value.keywords:
                if kw.arg is None:
                    self._keys(kw.value, bound, kwargs_name, scope, at, seen)
                elif kw.arg in RESERVED_KEYS:
                    self.bad.append(f"{at}: extra key {kw.arg!r}")
        elif isinstance(value, ast.Name) and value.id == kwargs_name:
            self.forwarders[scope.name] = at  # type: ignore[attr-defined]
        elif isinstance(value, ast.Name) and value.id in bound and value.id not in seen:
            for bound_value in bound[value.id]:
                self._keys(bound_value, bound, kwargs_name, scope, at, seen | {value.id})
        else:
            self.unknown.append(f"{at}: {ast.unparse(value)}")

    def check_forwarder_calls(self, trees: dict[str, ast.AST]) -> None:
        for where, tree in trees.items():
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else \
                    node.func.attr if isinstance(node.func, ast.Attribute) else None
                if name not in self.forwarders:
                    continue
                for kw in node.keywords:
                    if kw.arg is None:
                        self.unknown.append(f"{where}:{node.lineno}: **{ast.unparse(kw.value)} into {name}")
                    elif kw.arg in RESERVED_KEYS:
                        self.bad.append(f"{where}:{node.lineno}: {name}(..., {kw.arg}=...) reaches extra "
                                        f"at {self.forwarders[name]}")


def check_sources(sources: dict[str, str]) -> _Checker:
    checker = _Checker()
    trees = {where: ast.parse(text, where) for where, text in sources.items()}
    for where, tree in trees.items():
        checker.check_tree(tree, where)
    checker.check_forwarder_calls(trees)
    return checker


def test_reserved_keys_come_from_logrecord() -> None:
    assert {"thread", "name", "msg", "args", "module", "filename", "lineno", "process", "threadName",
            "message", "asctime", "levelname", "created"} <= RESERVED_KEYS
    assert "match" not in RESERVED_KEYS


def test_the_checker_finds_reserved_keys_in_every_shape() -> None:
    source = '''
import logging
log = logging.getLogger(__name__)

def literal():
    log.info("x", extra={"match": 1, "thread": 2})

def variable():
    extra = {"match": 1, "lineno": 3}
    log.warning("x", extra=extra)

def spread():
    base = {"name": "n"}
    log.error("x", extra={**base, "status": 1})

def with_dict():
    log.debug("x", extra=dict(module="m"))

def forward(logger, **extra):
    logger.info("x", extra={"match": 1, **extra})

def caller():
    forward(log, user=1, process=2)

def opaque(fields):
    log.info("x", extra=fields)
'''
    checker = check_sources({"sample.py": source})
    found = sorted(line.split("extra key ")[-1] if "extra key" in line else line for line in checker.bad)
    assert found == ["'lineno'", "'module'", "'name'", "'thread'",
                     "sample.py:23: forward(..., process=...) reaches extra at sample.py:20"]
    assert checker.unknown == ["sample.py:26: fields"]


def test_no_logging_call_uses_a_reserved_key() -> None:
    files = project_files()
    checker = check_sources({str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files})
    assert checker.checked > 20, "the walk found too few logging calls with extra= (is it reading the tree?)"
    assert "log_played" in checker.forwarders
    assert not checker.bad, "reserved LogRecord attributes in extra=:\n" + "\n".join(checker.bad)
    assert not checker.unknown, "extra= the check cannot read (use a dict literal):\n" + "\n".join(checker.unknown)

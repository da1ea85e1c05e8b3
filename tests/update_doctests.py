"""update_doctests.py FILE...: rewrites the expected output of every doctest
example in each FILE (a module's docstrings, or the >>> lines of a text file)
with what the example prints now, run by doctest itself in order, from the
current directory: a text file's in one namespace, a module's docstrings
each in the module's own (as pytest's doctests run them; the module is
imported by its name under mcprice, python/ on PYTHONPATH).  make update-docs
runs it on python/mcprice/*.py and README.md (from the top of the source
tree, with MCPRICE_LIBRARY set to the build's library); tests/test_python.sh
checks the same examples with pytest's doctests.  Examples marked +SKIP are
left alone.  Read the diff before committing it."""
import doctest
import importlib
import os
import sys


class _Recorder(doctest.DocTestRunner):
    def __init__(self):
        super().__init__(optionflags=doctest.ELLIPSIS)
        self.got = {}

    def report_failure(self, out, test, example, got):
        self.got[id(example)] = got

    def report_unexpected_exception(self, out, test, example, exc_info):
        raise SystemExit(f"{test.filename}:{test.lineno + example.lineno + 1}: "
                         f"the example raises {exc_info[1]!r}; fix it by hand")


def tests_of(path, text):
    """The file's tests, each with lineno its first line in the file (zero-based):
    a module's docstrings (a text file's one test would run an example's
    expected output on into the code after its docstring), or the text's."""
    if not path.endswith(".py"):
        return [doctest.DocTestParser().get_doctest(text, {}, path, path, 0)]
    parts = os.path.normpath(path)[:-3].split(os.sep)
    name = ".".join(parts[parts.index("mcprice"):])
    if name.endswith(".__init__"):
        name = name[:-len(".__init__")]
    found = doctest.DocTestFinder().find(importlib.import_module(name))
    return sorted((t for t in found if t.examples), key=lambda t: t.lineno)


def update(path):
    with open(path) as f:
        text = f.read()
    changes = []  # (the example's first line in the file, the example, what it printed)
    for test in tests_of(path, text):
        runner = _Recorder()
        runner.run(test, out=lambda s: None, clear_globs=True)
        changes += [(test.lineno + ex.lineno, ex, runner.got[id(ex)])
                    for ex in test.examples if id(ex) in runner.got]
    lines = text.split("\n")
    # from the last example up, so that earlier line numbers hold
    for first, ex, got in sorted(changes, key=lambda c: -c[0]):
        start = first + len(ex.source.rstrip("\n").split("\n"))
        old = len(ex.want.rstrip("\n").split("\n")) if ex.want else 0
        new = [" " * ex.indent + (g if g else "<BLANKLINE>")
               for g in got.rstrip("\n").split("\n")] if got else []
        lines[start:start + old] = new
        print(f"UPDATE: {path}:{start + 1}")
    updated = "\n".join(lines)
    if updated != text:
        with open(path, "w") as f:
            f.write(updated)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        update(p)

"""update_doctests.py FILE...: rewrites the expected output of every doctest
example in each FILE (a module's docstrings, or the >>> lines of a text file)
with what the example prints now, run by doctest itself in order in one
namespace a file, from the current directory.  make update-docs runs it on
python/mcprice/*.py and README.md (from the top of the source tree, with
MCPRICE_LIBRARY set to the build's library); tests/test_python.sh checks the
same examples with pytest's doctests.  Examples marked +SKIP are left alone.
Read the diff before committing it."""
import doctest
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


def update(path):
    with open(path) as f:
        text = f.read()
    test = doctest.DocTestParser().get_doctest(text, {}, path, path, 0)
    runner = _Recorder()
    runner.run(test, out=lambda s: None, clear_globs=True)
    lines = text.split("\n")
    # from the last example up, so that earlier line numbers hold
    for ex in reversed(test.examples):
        if id(ex) not in runner.got:
            continue
        start = ex.lineno + len(ex.source.rstrip("\n").split("\n"))
        old = len(ex.want.rstrip("\n").split("\n")) if ex.want else 0
        new = [" " * ex.indent + (g if g else "<BLANKLINE>")
               for g in runner.got[id(ex)].rstrip("\n").split("\n")] if runner.got[id(ex)] else []
        lines[start:start + old] = new
        print(f"UPDATE: {path}:{start + 1}")
    updated = "\n".join(lines)
    if updated != text:
        with open(path, "w") as f:
            f.write(updated)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        update(p)

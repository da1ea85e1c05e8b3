"""The package's build backend (python/mcprice_build.py), without building:
its version is the library's, its settings map to configure's options and
refuse others, its tags and the libraries it carries follow the manylinux
rules.  CI builds the wheel itself and runs the example from it (.ci/run)."""
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import mcprice  # noqa: E402
import mcprice_build  # noqa: E402


def test_version_is_the_library_s():
    assert mcprice_build._version() == mcprice.__version__ == mcprice.version()


def test_settings():
    assert "--disable-gpu" in mcprice_build._configure_args({"backend": "cpu"})
    assert "--without-cuda" in mcprice_build._configure_args({"backend": "cpu"})
    assert "--enable-gpu" in mcprice_build._configure_args({"backend": "cuda"})
    auto = mcprice_build._configure_args({})
    assert "--without-mpi" in auto and not any("gpu" in a for a in auto)
    assert mcprice_build._configure_args({"configure-args": "CFLAGS='-O3 -g'"})[-1] == \
        "CFLAGS=-O3 -g"
    with pytest.raises(RuntimeError, match="expected auto, cpu or cuda"):
        mcprice_build._configure_args({"backend": "gpu"})


def test_tags():
    """manylinux for the builder's glibc; a library that needs CUDA's is
    this platform's alone."""
    major, minor = mcprice_build._glibc()
    arch = os.uname().machine
    assert mcprice_build._platform(cuda=False) == f"manylinux_{major}_{minor}_{arch}"
    assert mcprice_build._platform(cuda=True) == f"linux_{arch}"


def test_carried_libraries():
    """Of the Python interpreter's own libraries, the C runtime stays the
    system's: the rule that keeps libc out of a wheel."""
    needed = mcprice_build._needed(sys.executable)
    assert needed and all(os.path.isabs(p) for _, p in needed)
    assert not [so for so, _ in needed
                if re.match(r"lib(c|m|pthread|dl)\.so", so) and not so.startswith(mcprice_build.SYSTEM)]


def test_metadata():
    m = mcprice_build._metadata("9.9.9")
    assert "Name: mcprice" in m and "Version: 9.9.9" in m
    assert 'Requires-Dist: matplotlib; extra == "plot"' in m

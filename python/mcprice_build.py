"""mcprice_build.py: the package's build backend (PEP 517, in-tree): the
wheel carries libmcprice, built from a copy of the source tree around
python/ in a temporary folder, so that `pip install ./python` needs neither
an installed library nor a file written into the tree (a copy: make would
regenerate a stale configure or Makefile.in where its sources are).

    pip install ./python                                  # GPU backend where nvcc is found
    pip wheel ./python --config-settings backend=cpu      # the portable CPU wheel

config settings: backend=auto (configure's choice: the CUDA kernels where
nvcc and libcudart are found), cpu (--disable-gpu --without-cuda: no CUDA
library at all, so no QMC on the CPU either), cuda (--enable-gpu: an error
without the toolkit); configure-args=... appended to configure's.  The
libraries libmcprice needs beyond the C runtime (jansson, OpenMP) go into
the wheel beside it (mcprice/_libs, loaded first by _lib.py), so that a
wheel without CUDA is manylinux: it runs on any Linux whose glibc is at
least the builder's (its tag).  One that needs a CUDA library (the GPU
backend's runtime, or cuRAND for the CPU's QMC) takes it from the machine
and is tagged for this platform alone.  No sdist: the package is built from
the tree (pip builds local folders in place since 21.3)."""
import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import Any, Dict, List, Optional, Tuple

PYTHON_DIR = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(PYTHON_DIR)
# what the manylinux policies let a wheel take from the system (PEP 600's
# baseline): the C runtime; and the CUDA driver and runtime, which a GPU
# wheel takes from its machine
GLIBC = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libmvec.so", "libpthread.so",
         "libdl.so", "librt.so", "libresolv.so", "libutil.so", "libgcc_s.so", "libstdc++.so")
CUDA = ("libcuda.so", "libcudart.so", "libcurand.so")
SYSTEM = GLIBC + CUDA


def _say(msg: str) -> None:
    print(f"mcprice_build: {msg}", file=sys.stderr, flush=True)


def _version() -> str:
    """configure.ac's, the one version of the library and the package."""
    with open(os.path.join(TOP, "configure.ac"), encoding="utf-8") as f:
        m = re.search(r"AC_INIT\(\[mcprice\],\s*\[([^\]]+)\]", f.read())
    if not m:
        raise RuntimeError("mcprice_build: configure.ac has no AC_INIT([mcprice], [VERSION])")
    return m.group(1)


def _run(cmd: List[str], cwd: str) -> None:
    _say(" ".join(shlex.quote(c) for c in cmd))
    subprocess.run(cmd, cwd=cwd, check=True, stdout=sys.stderr)


def _source(work: str) -> str:
    """A copy of the source tree in work, bootstrapped where it has no
    configure: a checkout's files (tracked, and untracked but not ignored),
    or a release tree's but its build products."""
    if not os.path.isfile(os.path.join(TOP, "configure.ac")):
        raise RuntimeError(
            "mcprice_build: the mcprice source tree is not around python/ "
            f"({TOP}); install from a checkout or a release tarball (pip >= 21.3)")
    src = os.path.join(work, "src")
    if os.path.isdir(os.path.join(TOP, ".git")) and shutil.which("git"):
        names = subprocess.run(["git", "ls-files", "-z", "-c", "-o", "--exclude-standard"],
                               cwd=TOP, check=True,
                               capture_output=True).stdout.decode().split("\0")
        for n in filter(None, names):
            if os.path.isfile(os.path.join(TOP, n)):
                os.makedirs(os.path.dirname(os.path.join(src, n)), exist_ok=True)
                shutil.copy2(os.path.join(TOP, n), os.path.join(src, n))
    else:
        shutil.copytree(TOP, src, symlinks=True,
                        ignore=shutil.ignore_patterns(".gpu", "*.o", "*.lo", "*.la", ".libs",
                                                      ".deps", "__pycache__"))
    if not os.path.isfile(os.path.join(src, "configure")):
        if not shutil.which("autoreconf"):
            raise RuntimeError("mcprice_build: a checkout has no configure script, and "
                               "autoreconf is not installed (autoconf, automake, libtool): "
                               "install them, or build from a release tarball")
        _run(["sh", "./bootstrap"], src)
    return src


def _configure_args(settings: Dict[str, Any]) -> List[str]:
    backend = settings.get("backend", "auto")
    choices: Dict[str, List[str]] = {"auto": [], "cpu": ["--disable-gpu", "--without-cuda"],
                                     "cuda": ["--enable-gpu"]}
    args = choices.get(backend)
    if args is None:
        raise RuntimeError(f"mcprice_build: backend={backend}: expected auto, cpu or cuda")
    return ["--disable-static", "--without-mpi"] + args + shlex.split(
        settings.get("configure-args", ""))


def _needed(lib: str) -> List[Tuple[str, str]]:
    """(soname, path) of each shared library lib loads, from ldd; a CUDA
    library the loader does not find here (not carried) has path ""."""
    out = subprocess.run(["ldd", lib], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (\S+) \(", line)
        if m:
            found.append((m.group(1), m.group(2)))
        elif "not found" in line:
            so = line.split()[0]
            if not so.startswith(CUDA):
                raise RuntimeError(f"mcprice_build: {lib}: {line.strip()}")
            found.append((so, ""))
    return found


def _glibc() -> Tuple[int, int]:
    name = os.confstr("CS_GNU_LIBC_VERSION") or ""
    m = re.match(r"glibc (\d+)\.(\d+)", name)
    if not m:
        raise RuntimeError(f"mcprice_build: not glibc ({name!r}): no manylinux tag")
    return int(m.group(1)), int(m.group(2))


def _platform(cuda: bool) -> str:
    arch = os.uname().machine
    if cuda:
        return f"linux_{arch}"
    major, minor = _glibc()
    return f"manylinux_{major}_{minor}_{arch}"


def _build(work: str, settings: Dict[str, Any]) -> Tuple[str, List[Tuple[str, str]], bool]:
    """libmcprice built in work: its path, the libraries to carry, and
    whether it needs a CUDA library (its wheel is then not manylinux)."""
    # built where the copy is: it may have been configured in place, as a
    # release tree can be, which a build in another folder refuses
    build = _source(work)
    _run(["./configure", "--quiet"] + _configure_args(settings), build)
    with open(os.path.join(build, "config.h"), encoding="utf-8") as f:
        gpu = re.search(r"^#define MCP_HAVE_CUDA 1", f.read(), re.M) is not None
    _say("building libmcprice with the " +
         ("GPU (CUDA) and CPU backends: nvcc was found" if gpu else
          "CPU backend alone" + (" (backend=cpu)" if settings.get("backend") == "cpu"
                                 else ": no nvcc or libcudart found")))
    # make reads MAKEFLAGS (a caller's -j) itself
    jobs = [] if os.environ.get("MAKEFLAGS") else [f"-j{os.cpu_count() or 1}"]
    _run(["make", *jobs, "src/libmcprice.la"], build)
    libs = os.path.join(build, "src", ".libs")
    real = [n for n in os.listdir(libs) if re.fullmatch(r"libmcprice\.so\.\d+\.\d+\.\d+", n)]
    if len(real) != 1:
        raise RuntimeError(f"mcprice_build: no libmcprice.so.X.Y.Z in {libs}")
    lib = os.path.join(libs, real[0])
    if shutil.which("strip"):  # the debugging sections: a third of the size
        _run(["strip", "--strip-debug", lib], build)
    needed = _needed(lib)
    carried = [(so, path) for so, path in needed if not so.startswith(SYSTEM)]
    cuda = [so for so, _ in needed if so.startswith(CUDA)]
    if cuda and not gpu:
        _say(f"needs {', '.join(cuda)} (the CPU's QMC): tagged for this platform, not manylinux")
    return lib, carried, bool(cuda)


def _metadata(version: str) -> str:
    with open(os.path.join(PYTHON_DIR, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join([
        "Metadata-Version: 2.1", "Name: mcprice", f"Version: {version}",
        "Summary: Monte Carlo pricing of equity derivatives on a GPU or the CPU "
        "(libmcprice inside)",
        "License: See the mcprice distribution", "Requires-Python: >=3.8",
        "Provides-Extra: pandas", 'Requires-Dist: pandas; extra == "pandas"',
        "Provides-Extra: plot", 'Requires-Dist: matplotlib; extra == "plot"',
        "Provides-Extra: test", 'Requires-Dist: pytest; extra == "test"',
        "Description-Content-Type: text/markdown", "", readme])


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    version = _version()
    with tempfile.TemporaryDirectory(prefix="mcprice-wheel-") as work:
        lib, carried, cuda = _build(work, config_settings or {})
        tag = f"py3-none-{_platform(cuda)}"
        files: List[Tuple[str, bytes]] = []
        pkg = os.path.join(PYTHON_DIR, "mcprice")
        for n in sorted(os.listdir(pkg)):
            if n.endswith(".py") or n == "py.typed":
                with open(os.path.join(pkg, n), "rb") as f:
                    files.append((f"mcprice/{n}", f.read()))
        with open(lib, "rb") as f:
            files.append(("mcprice/libmcprice.so", f.read()))
        for soname, path in carried:
            _say(f"carrying {soname} ({path})")
            with open(path, "rb") as f:
                files.append((f"mcprice/_libs/{soname}", f.read()))
        info = f"mcprice-{version}.dist-info"
        files.append((f"{info}/METADATA", _metadata(version).encode()))
        files.append((f"{info}/WHEEL", "\n".join([
            "Wheel-Version: 1.0", "Generator: mcprice_build", "Root-Is-Purelib: false",
            f"Tag: {tag}", ""]).encode()))
        files.append((f"{info}/top_level.txt", b"mcprice\n"))
        record = [_record_line(n, d) for n, d in files] + [f"{info}/RECORD,,"]
        files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
        name = f"mcprice-{version}-{tag}.whl"
        with zipfile.ZipFile(os.path.join(wheel_directory, name), "w",
                             zipfile.ZIP_DEFLATED) as z:
            for n, d in files:
                zi = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
                zi.compress_type = zipfile.ZIP_DEFLATED
                zi.external_attr = (0o755 if n.endswith((".so",)) or "/_libs/" in n
                                    else 0o644) << 16
                z.writestr(zi, d)
        _say(f"wrote {name}")
        return name


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []

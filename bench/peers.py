#!/usr/bin/env python3
"""peers.py: JAX and PyTorch on the benchmark Asian, for bench/peers.

The arithmetic Asian call of bench/common.c (S = K = 100, r 3%, q 1%, vol 25%,
T = 1, 252 daily fixings, one step a fixing), priced the way a user of each
framework would write it: the normals of a chunk of paths drawn at once on
the GPU, then the exact log-normal steps vectorised across the chunk's paths
(JAX: jax.jit over a lax.scan of the steps, the chunks in a lax.fori_loop;
PyTorch: torch.randn, then a cumulative sum along the steps).  Payoff sums
are kept in double.  Each timing is the wall time of a whole pricing, the
result synchronised (block_until_ready, torch.cuda.synchronize), the median
of the repeats after a warm-up run (which also compiles JAX's function).

Prints one line a run, `engine precision paths ms price std_error`, or
`engine precision paths n/a` with a line `# engine: why` where a framework is
missing, has no GPU or fails; it never exits with an error for that.

    peers.py [--engines jax,torch] [--precisions double,float]
             [--paths 1048576,4194304,16777216] [--repeats 5] [--chunk 1048576]
"""
import argparse
import math
import os
import statistics
import sys
import time

SPOT, STRIKE, RATE, DIVIDEND, VOL, MATURITY, STEPS = 100.0, 100.0, 0.03, 0.01, 0.25, 1.0, 252
SEED = 1


def coefficients():
    """log spot, drift and standard deviation of a step, discount factor."""
    dt = MATURITY / STEPS
    return (math.log(SPOT), (RATE - DIVIDEND - 0.5 * VOL * VOL) * dt, VOL * math.sqrt(dt),
            math.exp(-RATE * MATURITY))


def estimate(sums, paths):
    """Price and standard error from the sum and sum of squares of the payoffs."""
    s, s2 = sums
    mean = s / paths
    var = max(s2 / paths - mean * mean, 0.0)
    return mean, math.sqrt(var / (paths - 1))


def timed(run, repeats):
    """Median milliseconds of run() after one warm-up call, and its last result."""
    out = run()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, out


def torch_pricer(precision, chunk):
    """A function of the path count returning the payoff sums, on the GPU."""
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("torch sees no CUDA device")
    dev = torch.device("cuda")
    dtype = torch.float64 if precision == "double" else torch.float32
    x0, drift, sd, disc = coefficients()
    gen = torch.Generator(device=dev)

    def run(paths):
        gen.manual_seed(SEED)
        s = torch.zeros((), dtype=torch.float64, device=dev)
        s2 = torch.zeros((), dtype=torch.float64, device=dev)
        for start in range(0, paths, chunk):
            n = min(chunk, paths - start)
            # a row a path: the steps of a path are contiguous for the scan
            x = torch.randn((n, STEPS), dtype=dtype, device=dev, generator=gen)
            x.mul_(sd).add_(drift).cumsum_(1).add_(x0).exp_()
            pay = (x.mean(dim=1) - STRIKE).clamp_(min=0).to(torch.float64).mul_(disc)
            s += pay.sum()
            s2 += pay.square().sum()
            del x
        torch.cuda.synchronize()
        return s.item(), s2.item()

    return run


def jax_pricer(precision, chunk):
    # JAX takes most of the GPU's memory at start by default; the C program
    # beside it needs none now, but allocating as needed keeps the chunk
    # sizes honest.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import functools
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from jax import lax
    try:
        jax.devices("gpu")
    except RuntimeError as e:
        raise RuntimeError("jax has no GPU backend (%s)" % str(e).splitlines()[0])
    dtype = jnp.float64 if precision == "double" else jnp.float32
    x0, drift, sd, disc = coefficients()

    def chunk_sums(key, n):
        z = jax.random.normal(key, (STEPS, n), dtype=dtype)

        def step(carry, zk):
            x, total = carry
            x = x + (drift + sd * zk)
            return (x, total + jnp.exp(x)), None

        start = (jnp.full((n,), x0, dtype=dtype), jnp.zeros((n,), dtype=dtype))
        (_, total), _ = lax.scan(step, start, z)
        pay = jnp.maximum(total / STEPS - STRIKE, 0).astype(jnp.float64) * disc
        return pay.sum(), (pay * pay).sum()

    @functools.partial(jax.jit, static_argnums=(1, 2))
    def sums(key, nchunks, n):
        def body(c, acc):
            s, s2 = chunk_sums(jax.random.fold_in(key, c), n)
            return acc[0] + s, acc[1] + s2
        zero = jnp.zeros((), dtype=jnp.float64)
        return lax.fori_loop(0, nchunks, body, (zero, zero))

    key = jax.random.PRNGKey(SEED)

    def run(paths):
        n = min(chunk, paths)
        if paths % n:
            raise ValueError("paths must be a multiple of the chunk, %d" % n)
        s, s2 = jax.block_until_ready(sums(key, paths // n, n))
        return float(s), float(s2)

    return run


PRICERS = {"jax": jax_pricer, "torch": torch_pricer}


def first_line(e):
    text = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, text[0] if text else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="jax,torch")
    ap.add_argument("--precisions", default="double,float")
    ap.add_argument("--paths", default="1048576,4194304,16777216")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=1 << 20)
    args = ap.parse_args()
    sizes = [int(p) for p in args.paths.split(",")]
    for engine in args.engines.split(","):
        for precision in args.precisions.split(","):
            try:
                run = PRICERS[engine](precision, args.chunk)
            except Exception as e:  # a missing import or GPU: the rows are n/a
                print("# %s: %s" % (engine, first_line(e)))
                for paths in sizes:
                    print("%s %s %d n/a" % (engine, precision, paths))
                sys.stdout.flush()
                continue
            for paths in sizes:
                try:
                    ms, sums = timed(lambda: run(paths), args.repeats)
                    price, se = estimate(sums, paths)
                    print("%s %s %d %.3f %.6f %.6f" % (engine, precision, paths, ms, price, se))
                except Exception as e:  # out of memory, say: this row only
                    print("# %s %s %d: %s" % (engine, precision, paths, first_line(e)))
                    print("%s %s %d n/a" % (engine, precision, paths))
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

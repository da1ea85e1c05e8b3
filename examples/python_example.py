# %% [markdown]
# # mcprice from Python
# The example market and book, priced on the CPU (or the GPU where there is
# one), then a few Greeks and a grid of spot shifts.  Run it as a script
# (`python3 examples/python_example.py`) or cell by cell in a notebook;
# the library is found through MCPRICE_LIBRARY, the loader or pkg-config.

# %%
import os
import mcprice

here = os.path.dirname(os.path.abspath(__file__))
market = os.path.join(here, "market.json")
book = os.path.join(here, "book.json")
print("mcprice", mcprice.version())

# %% The book at 20,000 paths
r = mcprice.price(market, book, paths=20_000, seed=2026)
print(f"book: {r.total.price:.2f} +- {r.total.std_error:.2f} ({r.backend}, {r.seconds:.2f} s)")
for t in r.trades[:5]:
    print(f"  {t.id:16s} {t.quantity:6g} x {t.price:10.4f} +- {t.std_error:.4f} ({t.engine})")

# %% Greeks of one trade, and of the book by underlying
g = mcprice.price(market, book, paths=20_000, greeks="delta,gamma,vega")
for name, s in g["ACME-EC-100"].greeks.items():
    print(f"  ACME-EC-100 {name:8s} {s.value.price:9.5f} +- {s.value.std_error:.5f} ({s.method})")
print("  book delta:ACME", g.book_greeks["delta:ACME"].value.price)

# %% A market given as a dict, and a scenario grid on the same paths
mkt = {"rate": 0.03, "underlyings": [{"name": "X", "spot": 100, "volatility": 0.2}]}
bk = {"run": {"paths": 50_000}, "trades": [
    {"id": "call", "product": "european", "type": "call", "underlying": "X",
     "strike": 100, "maturity": 1}]}
grid = mcprice.scenarios(mkt, bk, {"spot": {"shifts": [-0.1, 0, 0.1]}})
assert isinstance(grid, mcprice.ScenarioResults)  # a grid, not a scenario set
print("call at spot -10%, 0, +10%:", [round(grid.prices["call"][i][0][0].price, 4) for i in range(3)])

# %% A table, where pandas is installed
try:
    print(r.to_dataframe().head())
except ImportError:
    print("(pandas is not installed: no DataFrame)")

/* report_plot.c: --plot, a scenario grid's book values as a PNG heatmap:
 * the spot shifts across, the volatility shifts up, at the rate shift 0
 * (else the grid's first), white at the unshifted book. */
#include <math.h>
#include <stdlib.h>
#include "src/cli/heatmap.h"
#include "src/cli/report.h"

/* The index of shift 0 along axis, or n where the axis has none. */
static size_t zero_of(const mcp_scenario_results *r, mcp_shift_axis axis, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (mcp_scenario_results_shift(r, axis, i) == 0)
      return i;
  return n;
}

int report_plot_scenarios(FILE *f, const mcp_scenario_results *r)
{
  size_t nx = mcp_scenario_results_shifts(r, MCP_SHIFT_SPOT);
  size_t ny = mcp_scenario_results_shifts(r, MCP_SHIFT_VOLATILITY);
  size_t nr = mcp_scenario_results_shifts(r, MCP_SHIFT_RATE);
  size_t k = zero_of(r, MCP_SHIFT_RATE, nr);
  k = k < nr ? k : 0;
  double *x = malloc(nx * sizeof *x), *y = malloc(ny * sizeof *y);
  double *v = malloc(nx * ny * sizeof *v);
  int rc = -1;
  if (!x || !y || !v || nx == 0 || ny == 0 || nr == 0)
    goto done;
  for (size_t i = 0; i < nx; i++)
    x[i] = mcp_scenario_results_shift(r, MCP_SHIFT_SPOT, i);
  for (size_t j = 0; j < ny; j++)
    y[j] = mcp_scenario_results_shift(r, MCP_SHIFT_VOLATILITY, j);
  for (size_t j = 0; j < ny; j++)
    for (size_t i = 0; i < nx; i++) {
      mcp_estimate e;
      if (mcp_scenario_results_total(r, i, j, k, &e) != MCP_OK)
        goto done;
      v[j * nx + i] = e.price;
    }
  size_t i0 = zero_of(r, MCP_SHIFT_SPOT, nx), j0 = zero_of(r, MCP_SHIFT_VOLATILITY, ny);
  char title[96];
  snprintf(title, sizeof title, "book value, rate shift %g%s",
           mcp_scenario_results_shift(r, MCP_SHIFT_RATE, k),
           mcp_scenario_results_kind(r, MCP_SHIFT_RATE) == MCP_SHIFT_RELATIVE ? " (relative)" : "");
  const char *kind[2] = {
      mcp_scenario_results_kind(r, MCP_SHIFT_SPOT) == MCP_SHIFT_RELATIVE ? "relative" : "absolute",
      mcp_scenario_results_kind(r, MCP_SHIFT_VOLATILITY) == MCP_SHIFT_RELATIVE ? "relative"
                                                                              : "absolute"};
  char xl[48], yl[48];
  snprintf(xl, sizeof xl, "spot shift (%s)", kind[0]);
  snprintf(yl, sizeof yl, "volatility shift (%s)", kind[1]);
  cli_heatmap h = {title, xl, yl, nx, ny, x, y, v,
                   i0 < nx && j0 < ny ? v[j0 * nx + i0] : NAN};
  rc = cli_heatmap_write(f, &h);
done:
  free(x);
  free(y);
  free(v);
  return rc;
}

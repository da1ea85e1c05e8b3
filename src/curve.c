/* curve.c: integrals of piecewise-constant curves. */
#include <stdlib.h>
#include "curve.h"
#include "mcprice.h"

int mcpi_curve_flat(mcpi_curve *c, double v)
{
  c->end = malloc(sizeof *c->end);
  c->value = malloc(sizeof *c->value);
  if (!c->end || !c->value) {
    mcpi_curve_free(c);
    return MCP_ERR_NO_MEMORY;
  }
  c->n = 1;
  c->end[0] = 0;
  c->value[0] = v;
  return MCP_OK;
}

void mcpi_curve_free(mcpi_curve *c)
{
  free(c->end);
  free(c->value);
  c->end = c->value = NULL;
  c->n = 0;
}

static double integral(const mcpi_curve *c, double a, double b, int square)
{
  double sum = 0, lo = 0;
  for (size_t i = 0; i < c->n && lo < b; i++) {
    double hi = i + 1 < c->n ? c->end[i] : b;
    double l = a > lo ? a : lo, h = b < hi ? b : hi;
    if (h > l)
      sum += (square ? c->value[i] * c->value[i] : c->value[i]) * (h - l);
    lo = hi;
  }
  return sum;
}

double mcpi_curve_integral(const mcpi_curve *c, double a, double b) { return integral(c, a, b, 0); }

double mcpi_curve_integral_sq(const mcpi_curve *c, double a, double b)
{
  return integral(c, a, b, 1);
}

/* heston_adjoint.h: the reverse of one Heston step (heston.h's, double), for
 * the adjoint's sweep (models/products/adjoint.h), shared by gcc and nvcc.
 *
 * Given the step's start variance v, its normals zv and zx, its length dt
 * and E = e^{-kappa dt}, and the adjoints xb of x' and *vb of v', it sets *vb
 * to v's adjoint and adds the parameters' to g; x's adjoint is xb (x' = x +
 * drift + ...: the drift's too, which the caller takes to the rate and
 * dividend curves).  The QE step reads kappa, rho and xi also through its
 * view's rx = rho / xi, krx = kappa rho / xi - 1/2, rkt = -rho kappa theta
 * and xk = xi^2 / kappa (path.h), whose adjoints g gathers over the path and
 * mcpi_heston_bar_params takes to the parameters once.  Within each of the
 * step's branches (psi <= 1.5 or not; the martingale correction's cases)
 * the step is smooth in its inputs; the branches' borders, where the
 * scheme's v' jumps (the two distributions match only in their first two
 * moments), carry no derivative: a pathwise estimate leaves out what paths
 * crossing them move, of the order of the scheme's own error (Andersen
 * 2008).  Full-truncation Euler is continuous: v+ = max(v, 0). */
#ifndef MCP_HESTON_ADJOINT_H
#define MCP_HESTON_ADJOINT_H

/* The parameters' adjoints and those of the view's derived terms. */
typedef struct mcpi_heston_bar {
  double kappa, theta, xi, rho, rx, krx, rkt, xk;
} mcpi_heston_bar;

MCP_HD static inline void mcpi_heston_back(const mcpi_heston *h, int scheme, double v, double dt,
                                           double E, double zv, double zx, double xb,
                                           double *vb, mcpi_heston_bar *g)
{
  const double kappa = h->kappa, theta = h->theta, xi = h->xi, rho = h->rho;
  double vnb = *vb;
  if (scheme == MCP_HESTON_EULER) {
    /* x' = x + drift - v+ dt / 2 + sq (rho zv + c zx), v' = v + kappa (theta -
     * v+) dt + xi sq zv, sq = sqrt(v+ dt), c = sqrt(1 - rho^2) */
    double vp = v > 0 ? v : 0, sq = sqrt(vp * dt), c = sqrt(1 - rho * rho);
    double vpb = -0.5 * dt * xb - kappa * dt * vnb;
    double sqb = xb * (rho * zv + c * zx) + vnb * xi * zv;
    g->rho += xb * sq * (zv - rho / c * zx);
    g->kappa += vnb * (theta - vp) * dt;
    g->theta += vnb * kappa * dt;
    g->xi += vnb * sq * zv;
    if (sq > 0)
      vpb += sqb * dt / (2 * sq);
    *vb = vnb + (v > 0 ? vpb : 0);
    return;
  }
  /* the forward's terms, as heston.h computes them (its branch again) */
  double e1 = 1 - E, m = theta + (v - theta) * E, m2 = m * m;
  double s2 = h->xk * e1 * (v * E + 0.5 * theta * e1);
  double k1 = 0.5 * dt * h->krx - h->rx, k2 = 0.5 * dt * h->krx + h->rx;
  double k3 = 0.5 * dt * (1 - rho * rho), A = k2 + 0.5 * k3;
  double vn, mb = 0, s2b = 0, Ab = 0, k1b = 0, k2b = 0, k3b = 0, vb0 = 0, plainb = 0;
  int held = 1; /* k0's term -(k1 + k3 / 2) v */
  /* vn and each branch's adjoints of m, s2 and A from vn's (filled below,
   * once vn's is known): kept as the branch's quantities */
  int branch;
  double r = 0, b2 = 0, q = 0, d = 0, w = 0, p = 0, beta = 0, L = 0, la = 1;
  int capped = 0, live = 0;
  if (!(s2 > 0)) {
    branch = 0;
    vn = m;
  } else if (s2 <= 1.5 * m2) {
    r = 2 * m2 / s2;
    capped = !(r < MCPI_QE_R_MAX_D);
    r = capped ? MCPI_QE_R_MAX_D : r;
    b2 = r - 1 + sqrt(r * (r - 1));
    q = 1 + b2;
    d = q - 2 * A * m;
    w = sqrt(b2) + zv;
    branch = d > 0 ? 1 : 2;
    held = branch == 1;
    vn = m * w * w / q;
  } else {
    p = (s2 - m2) / (s2 + m2);
    beta = (1 - p) / m;
    double u1 = MCPI_NCDF_D(-zv);
    live = !(u1 >= 1 - p);
    L = live ? log((1 - p) / u1) : 0;
    vn = live ? L / beta : 0;
    branch = A < beta ? 3 : 4;
    held = branch == 3;
    if (held)
      la = p + beta * (1 - p) / (beta - A);
  }
  /* x' = x + drift + k0 + k1 v + k2 vn + sqrt(k3 (v + vn)) zx */
  double vnb_all = vnb + xb * k2, sq = sqrt(k3 * (v + vn));
  k1b += xb * v;
  k2b += xb * vn;
  vb0 += xb * k1;
  if (sq > 0) {
    double t = xb * zx / (2 * sq);
    k3b += t * (v + vn);
    vb0 += t * k3;
    vnb_all += t * k3;
  }
  if (held) { /* k0b = (k1 + k3 / 2) v, subtracted */
    k1b -= xb * v;
    k3b -= 0.5 * xb * v;
    vb0 -= xb * (k1 + 0.5 * k3);
  }
  if (branch == 0) { /* vn = m, k0a = -A m */
    mb += vnb_all - xb * A;
    Ab -= xb * m;
  } else if (branch <= 2) {
    /* vn = m w^2 / q; branch 1: k0a = -A b2 m / d, and log(d / q) / 2 */
    double wb = vnb_all * 2 * m * w / q, qb = -vnb_all * m * w * w / (q * q), b2b = 0, db = 0;
    mb += vnb_all * w * w / q;
    if (branch == 1) {
      Ab -= xb * b2 * m / d;
      b2b -= xb * A * m / d;
      mb -= xb * A * b2 / d;
      db += xb * A * b2 * m / (d * d) + 0.5 * xb / d;
      qb -= 0.5 * xb / q;
    } else {
      plainb = xb;
    }
    qb += db; /* d = q - 2 A m */
    Ab -= 2 * m * db;
    mb -= 2 * A * db;
    b2b += wb / (2 * sqrt(b2)) + qb;
    if (!capped) { /* b2 = r - 1 + sqrt(r (r - 1)), r = 2 m^2 / s2 */
      double rb = b2b * (1 + (2 * r - 1) / (2 * sqrt(r * (r - 1))));
      mb += rb * 4 * m / s2;
      s2b -= rb * r / s2;
    }
  } else {
    double pb = 0, betab = 0;
    if (live) { /* vn = L / beta, L = log((1 - p) / u1) */
      double Lb = vnb_all / beta;
      betab -= vnb_all * L / (beta * beta);
      pb -= Lb / (1 - p);
    }
    if (branch == 3) { /* k0 = -log(la) - k0b, la = p + beta (1 - p) / (beta - A) */
      double lab = -xb / la, D = beta - A;
      pb += lab * (1 - beta / D);
      betab -= lab * (1 - p) * A / (D * D);
      Ab += lab * beta * (1 - p) / (D * D);
    } else {
      plainb = xb;
    }
    pb -= betab / m; /* beta = (1 - p) / m */
    mb -= betab * (1 - p) / (m * m);
    double S = s2 + m2; /* p = (s2 - m2) / (s2 + m2) */
    s2b += pb * 2 * m2 / (S * S);
    mb -= pb * 2 * s2 / (S * S) * 2 * m;
  }
  if (plainb != 0) { /* k0 = -rho kappa theta dt / xi: rkt dt / xi */
    g->rkt += plainb * dt / xi;
    g->xi -= plainb * h->rkt * dt / (xi * xi);
  }
  k2b += Ab; /* A = k2 + k3 / 2 */
  k3b += 0.5 * Ab;
  g->krx += 0.5 * dt * (k1b + k2b);
  g->rx += k2b - k1b;
  g->rho -= k3b * dt * rho;
  /* s2 = xk e1 (v E + theta e1 / 2), m = theta + (v - theta) E, e1 = 1 - E */
  double P = v * E + 0.5 * theta * e1, Eb = 0, e1b = s2b * h->xk * (P + 0.5 * theta * e1);
  g->xk += s2b * e1 * P;
  vb0 += s2b * h->xk * e1 * E + mb * E;
  Eb += s2b * h->xk * e1 * v + mb * (v - theta) - e1b;
  g->theta += s2b * h->xk * e1 * 0.5 * e1 + mb * (1 - E);
  g->kappa -= Eb * dt * E; /* E = e^{-kappa dt} */
  *vb = vb0;
}

/* g's derived terms' adjoints taken to the parameters (their own view's
 * definitions, path.h), and cleared. */
MCP_HD static inline void mcpi_heston_bar_params(const mcpi_heston *h, mcpi_heston_bar *g)
{
  double kappa = h->kappa, theta = h->theta, xi = h->xi, rho = h->rho;
  g->kappa += g->krx * rho / xi - g->rkt * rho * theta - g->xk * xi * xi / (kappa * kappa);
  g->theta -= g->rkt * rho * kappa;
  g->xi += -g->rx * rho / (xi * xi) - g->krx * kappa * rho / (xi * xi) + g->xk * 2 * xi / kappa;
  g->rho += g->rx / xi + g->krx * kappa / xi - g->rkt * kappa * theta;
  g->rx = g->krx = g->rkt = g->xk = 0;
}

#endif

/* heston_adjoint.h: the reverse of one Heston step (heston.h's, double), for
 * the adjoint's sweep (models/products/adjoint.h), shared by gcc and nvcc.
 *
 * Given the step's start variance v and its end vn (the path's), its normals
 * zv and zx, its length dt and E = e^{-kappa dt}, and the adjoints xb of x'
 * and *vb of v', it sets *vb to v's adjoint and adds the parameters' to g,
 * and where zb is not NULL sets zb[0] and zb[1] to zv's and zx's (several
 * correlated assets: their drivers' adjoints, whose products with the
 * step's normals are the correlations' factor's, adjoint.h);
 * x's adjoint is xb (x' = x + drift + ...: the drift's too, which the
 * caller takes to the rate and dividend curves).  The QE step reads kappa,
 * rho and xi also through its view's rx = rho / xi, krx = kappa rho / xi -
 * 1/2, rkt = -rho kappa theta and xk = xi^2 / kappa (path.h), whose
 * adjoints g gathers over the path and mcpi_heston_bar_params takes to the
 * parameters once.  Within each of the
 * step's branches (psi <= 1.5 or not; the martingale correction's cases)
 * the step is smooth in its inputs; the branches' borders, where the
 * scheme's v' jumps (the two distributions match only in their first two
 * moments), carry no derivative: a pathwise estimate leaves out what paths
 * crossing them move (within the errors of a European's exact gradient at
 * 4M paths: bench/RESULTS.md, "heston-adjoint").  Full-truncation Euler is
 * continuous, v+ = max(v, 0), but its root's derivative has no bound at 0. */
#ifndef MCP_HESTON_ADJOINT_H
#define MCP_HESTON_ADJOINT_H

#define MCPI_INV_SQRT_2PI 0.398942280401432677939946059934381868

/* The parameters' adjoints and those of the view's derived terms. */
typedef struct mcpi_heston_bar {
  double kappa, theta, xi, rho, rx, krx, rkt, xk;
} mcpi_heston_bar;

MCP_HD static inline void mcpi_heston_back(const mcpi_heston *h, int scheme, double v, double vn,
                                           double dt, double E, double zv, double zx, double xb,
                                           double *vb, mcpi_heston_bar *g, double *zb)
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
    if (zb) {
      zb[0] = xb * sq * rho + vnb * xi * sq;
      zb[1] = xb * sq * c;
    }
    if (sq > 0)
      vpb += sqb * dt / (2 * sq);
    *vb = vnb + (v > 0 ? vpb : 0);
    return;
  }
  /* the forward's terms (the branch heston.h took, found again; v' itself,
   * vn, the path's: no exponential branch's log and normal distribution
   * function again), each reciprocal taken once */
  double e1 = 1 - E, m = theta + (v - theta) * E, m2 = m * m;
  double s2 = h->xk * e1 * (v * E + 0.5 * theta * e1);
  double k1 = 0.5 * dt * h->krx - h->rx, k2 = 0.5 * dt * h->krx + h->rx;
  double k3 = 0.5 * dt * (1 - rho * rho), A = k2 + 0.5 * k3;
  double mb = 0, s2b = 0, Ab = 0, k1b = 0, k2b = 0, k3b = 0, vb0 = 0, plainb = 0;
  /* k0 = k0a + lc log(la) - k0b, k0b = (k1 + k3 / 2) v where held */
  int branch = !(s2 > 0) ? 0 : s2 <= 1.5 * m2 ? 1 : 3, held = 1;
  /* x' = x + drift + k0 + k1 v + k2 vn + sqrt(k3 (v + vn)) zx */
  double vnb_all = vnb + xb * k2, sq = sqrt(k3 * (v + vn)), zvb = 0;
  k1b += xb * v;
  k2b += xb * vn;
  vb0 += xb * k1;
  if (sq > 0) {
    double t = xb * zx * (0.5 / sq);
    k3b += t * (v + vn);
    vb0 += t * k3;
    vnb_all += t * k3;
  }
  if (branch == 0) { /* vn = m, k0a = -A m */
    mb += vnb_all - xb * A;
    Ab -= xb * m;
  } else if (branch == 1) {
    /* r = 2 m^2 / s2 (capped), b2 = r - 1 + sqrt(r (r - 1)), q = 1 + b2,
     * d = q - 2 A m, w = sqrt(b2) + zv; vn = m w^2 / q; where d > 0,
     * k0a = -A b2 m / d and log(d / q) / 2, else k0a = rkt dt / xi and no
     * k0b */
    double is2 = 1 / s2, r = 2 * m2 * is2;
    int capped = !(r < MCPI_QE_R_MAX_D);
    r = capped ? MCPI_QE_R_MAX_D : r;
    double sr = sqrt(r * (r - 1)), b2 = r - 1 + sr, q = 1 + b2, d = q - 2 * A * m;
    double sb = sqrt(b2), w = sb + zv, iq = 1 / q, b2b = 0, db = 0;
    double wq = w * iq, mw = m * wq;
    double qb = -vnb_all * mw * wq; /* d vn / dq = -m w^2 / q^2 */
    mb += vnb_all * w * wq;
    double wb = 2 * vnb_all * mw;
    zvb = wb; /* w = sqrt(b2) + zv */
    if (d > 0) {
      double id = 1 / d, t = xb * id;
      Ab -= t * b2 * m;
      b2b -= t * A * m;
      mb -= t * A * b2;
      db += t * (A * b2 * m * id + 0.5);
      qb -= 0.5 * xb * iq;
    } else {
      held = 0;
      plainb = xb;
    }
    qb += db; /* d = q - 2 A m */
    Ab -= 2 * m * db;
    mb -= 2 * A * db;
    b2b += wb * (0.5 / sb) + qb;
    if (!capped) {
      double rb = b2b * (1 + (2 * r - 1) * (0.5 / sr));
      mb += rb * 4 * m * is2;
      s2b -= rb * r * is2;
    }
  } else {
    /* p = (s2 - m^2) / (s2 + m^2), beta = (1 - p) / m; vn = L / beta, L =
     * log((1 - p) / U') (0 where the mass at 0 took it); where A < beta
     * k0 = -log(la) - k0b, la = p + beta (1 - p) / (beta - A), else
     * k0a = rkt dt / xi and no k0b */
    double iS = 1 / (s2 + m2), p = (s2 - m2) * iS, im = 1 / m, beta = (1 - p) * im;
    double pb = 0, betab = 0;
    if (vn > 0) { /* L = vn beta */
      double ib = 1 / beta;
      betab -= vnb_all * vn * ib;
      pb -= vnb_all * ib / (1 - p);
      /* U' = Phi(-zv) = (1 - p) e^{-L}: d vn / d zv = phi(zv) / (beta U')
       * (the exponential mcp_dmath.h's: the host's bits the device's) */
      if (zb)
        zvb = vnb_all * ib * MCPI_INV_SQRT_2PI * mcpi_dexp(vn * beta - 0.5 * zv * zv) / (1 - p);
    }
    if (A < beta) {
      double iD = 1 / (beta - A), la = p + beta * (1 - p) * iD, lab = -xb / la;
      pb += lab * (1 - beta * iD);
      betab -= lab * (1 - p) * A * iD * iD;
      Ab += lab * beta * (1 - p) * iD * iD;
    } else {
      held = 0;
      plainb = xb;
    }
    pb -= betab * im; /* beta = (1 - p) / m */
    mb -= betab * (1 - p) * im * im;
    s2b += pb * 2 * m2 * iS * iS; /* p */
    mb -= pb * 4 * s2 * m * iS * iS;
  }
  if (held) { /* k0b, subtracted */
    k1b -= xb * v;
    k3b -= 0.5 * xb * v;
    vb0 -= xb * (k1 + 0.5 * k3);
  }
  if (plainb != 0) { /* k0a = -rho kappa theta dt / xi: rkt dt / xi */
    double ix = 1 / xi;
    g->rkt += plainb * dt * ix;
    g->xi -= plainb * h->rkt * dt * ix * ix;
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
  if (zb) {
    zb[0] = zvb;
    zb[1] = xb * sq;
  }
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

/* The same random clFFT plans through whichever libclFFT.so.2 the loader finds, every status and buffer
 * written to a file: scripts/clfft-differential runs it against clFFT 2.12 and fftx and compares the two.
 * Usage: clfft_differential CASES SEED OUT. Input buffers are random; output buffers start as 12345.0, so
 * what a library leaves unwritten is compared too. Every third plan sets its scale; every tenth plan is 1D
 * of 10000 to 2^18 points. C2R input is made Hermitian (hermitian() below): a C2R of other input has no
 * defined result. */
#include <clFFT.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
static unsigned long long st = 88172645463325252ULL;
static unsigned rnd(unsigned n) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (unsigned)(st % n); }
/* Makes the half spectra of a C2R input Hermitian, as the R2C of real data gives them: along the columns
 * k0 = 0 and k0 = N0 / 2 (N0 even), which hold the values whose mirrors the half spectrum also holds,
 * X[k0, k1, k2] = conj(X[k0, -k1, -k2]) (the DC and such self-mirrored values then real). re and im are the
 * two planes, or one interleaved plane and its imaginary parts one further (step 2). */
static void hermitian(double *re, double *im, size_t step, const size_t *len, const size_t *cs, size_t cdist,
                      int batch) {
  size_t cols[2] = {0, len[0] / 2};
  int ncols = len[0] % 2 == 0 ? 2 : 1;
  for (int b = 0; b < batch; b++)
    for (int c = 0; c < ncols; c++)
      for (size_t k2 = 0; k2 < len[2]; k2++)
        for (size_t k1 = 0; k1 < len[1]; k1++) {
          size_t m1 = (len[1] - k1) % len[1], m2 = (len[2] - k2) % len[2];
          if (m2 * len[1] + m1 < k2 * len[1] + k1) continue;
          size_t x = step * (b * cdist + cols[c] * cs[0] + k1 * cs[1] + k2 * cs[2]);
          size_t y = step * (b * cdist + cols[c] * cs[0] + m1 * cs[1] + m2 * cs[2]);
          double r = (re[x] + re[y]) / 2, i = (im[x] - im[y]) / 2;
          re[x] = re[y] = r; im[x] = i; im[y] = -i;
        }
}

int main(int argc, char **argv) {
  int cases = atoi(argv[1]); st ^= strtoull(argv[2], 0, 10); FILE *out = fopen(argv[3], "wb");
  cl_platform_id p; cl_device_id d; clGetPlatformIDs(1, &p, 0); clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, 0);
  cl_context c = clCreateContext(0, 1, &d, 0, 0, 0); cl_command_queue q = clCreateCommandQueue(c, d, 0, 0);
  clfftSetupData sd; clfftInitSetupData(&sd); clfftSetup(&sd);
  static const size_t L[] = {2, 3, 4, 5, 6, 8, 9, 10, 12, 16, 15, 32, 64, 100, 128};
  for (int k = 0; k < cases; k++) {
    int dim = 1 + rnd(3); size_t len[3] = {1, 1, 1}, total = 1;
    for (int a = 0; a < dim; a++) { if (total > 4096) { dim = a; break; } do len[a] = L[rnd(15)]; while (total * len[a] > 8192); total *= len[a]; }
    int dbl = rnd(2), kind = rnd(3) /*0 c2c 1 r2c 2 c2r*/, inplace = rnd(3) == 0, batch = 1 + rnd(3);
    int planar_in = rnd(2), planar_out = rnd(2), dir = rnd(2) ? CLFFT_FORWARD : CLFFT_BACKWARD;
    int setstrides = rnd(2), transposed = (dim == 2 && kind == 0 && rnd(4) == 0);
    /* Every tenth plan is 1D of a long length instead (four-steps and their real stages), chosen from the case
     * number after the random draws, so that the other plans stay as they were. */
    static const size_t LONG[] = {16384, 65536, 16807, 1 << 18, 12288, 15625, 10000, 1 << 17};
    if (k % 10 == 9) {
      dim = 1; transposed = 0;
      len[1] = len[2] = 1; total = len[0] = LONG[(k / 10) % 8];
    }
    clfftLayout li, lo;
    if (kind == 0) { li = planar_in ? CLFFT_COMPLEX_PLANAR : CLFFT_COMPLEX_INTERLEAVED; lo = planar_out ? CLFFT_COMPLEX_PLANAR : CLFFT_COMPLEX_INTERLEAVED; if (inplace) lo = li; }
    else if (kind == 1) { li = CLFFT_REAL; lo = planar_out && !inplace ? CLFFT_HERMITIAN_PLANAR : CLFFT_HERMITIAN_INTERLEAVED; dir = CLFFT_FORWARD; }
    else { lo = CLFFT_REAL; li = planar_in && !inplace ? CLFFT_HERMITIAN_PLANAR : CLFFT_HERMITIAN_INTERLEAVED; dir = CLFFT_BACKWARD; }
    /* strides: packed for complex, hermitian half along axis 0 for real, padded rows in place */
    size_t h0 = len[0] / 2 + 1, rs[3], cs[3], rdist, cdist;
    size_t rrow = inplace ? 2 * h0 : len[0];
    rs[0] = 1; rs[1] = rrow; rs[2] = rrow * len[1]; rdist = rrow * len[1] * len[2];
    cs[0] = 1; cs[1] = h0; cs[2] = h0 * len[1]; cdist = h0 * len[1] * len[2];
    clfftPlanHandle h; int s_create = clfftCreateDefaultPlan(&h, c, (clfftDim)dim, len);
    clfftSetPlanPrecision(h, dbl ? CLFFT_DOUBLE : CLFFT_SINGLE);
    int s_layout = clfftSetLayout(h, li, lo);
    clfftSetResultLocation(h, inplace ? CLFFT_INPLACE : CLFFT_OUTOFPLACE);
    clfftSetPlanBatchSize(h, batch);
    if (transposed) clfftSetPlanTransposeResult(h, CLFFT_TRANSPOSED);
    /* Every third plan scales its direction; from the case number, so that the random draws stay as they were. */
    float scale = k % 3 == 1 ? 0.25f * (float)(1 + k % 5) : 0.0f;
    if (scale) clfftSetPlanScale(h, (clfftDirection)dir, scale);
    if (kind != 0 && (setstrides || inplace)) {
      if (kind == 1) { clfftSetPlanInStride(h, dim, rs); clfftSetPlanOutStride(h, dim, cs); clfftSetPlanDistance(h, rdist, cdist); }
      else { clfftSetPlanInStride(h, dim, cs); clfftSetPlanOutStride(h, dim, rs); clfftSetPlanDistance(h, cdist, rdist); }
    }
    int s_bake = clfftBakePlan(h, 1, &q, 0, 0);
    size_t es = dbl ? 8 : 4, cap = 2 * (total * 2 + 1024) * batch + 4096; /* scalars per plane, generous */
    double *host = malloc(cap * 8), *given[2] = {malloc(cap * 8), malloc(cap * 8)}; void *buf = malloc(cap * es);
    cl_mem in[2], o[2];
    for (int pl = 0; pl < 2; pl++)
      for (size_t i = 0; i < cap; i++) given[pl][i] = (double)rnd(20001) / 10000.0 - 1.0;
    if (kind == 2) {
      /* Unless set, the strides and distance stay those clfftCreateDefaultPlan packs from the lengths. */
      size_t ds[3] = {1, len[0], len[0] * len[1]}, *s = setstrides || inplace ? cs : ds;
      size_t dist = setstrides || inplace ? cdist : total;
      if (li == CLFFT_HERMITIAN_PLANAR) hermitian(given[0], given[1], 1, len, s, dist, batch);
      else hermitian(given[0], given[0] + 1, 2, len, s, dist, batch);
    }
    for (int pl = 0; pl < 2; pl++) {
      for (size_t i = 0; i < cap; i++) { if (dbl) ((double *)buf)[i] = given[pl][i]; else ((float *)buf)[i] = (float)given[pl][i]; }
      in[pl] = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, cap * es, buf, 0);
      for (size_t i = 0; i < cap; i++) { if (dbl) ((double *)buf)[i] = 12345.0; else ((float *)buf)[i] = 12345.0f; }
      o[pl] = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, cap * es, buf, 0);
    }
    int s_enq = -1;
    if (s_bake == 0) { cl_event e; s_enq = clfftEnqueueTransform(h, dir, 1, &q, 0, 0, &e, in, inplace ? 0 : o, 0); clFinish(q); }
    fprintf(out, "case %d dim %d len %zu %zu %zu %s kind %d inplace %d batch %d li %d lo %d dir %d setstrides %d scale %g transposed %d status %d %d %d %d\n",
            k, dim, len[0], len[1], len[2], dbl ? "double" : "single", kind, inplace, batch, li, lo, dir, setstrides, scale, transposed, s_create, s_layout, s_bake, s_enq);
    if (s_enq == 0) {
      cl_mem *res = inplace ? in : o;
      for (int pl = 0; pl < 2; pl++) {
        clEnqueueReadBuffer(q, res[pl], 1, 0, cap * es, buf, 0, 0, 0);
        for (size_t i = 0; i < cap; i++) host[i] = dbl ? ((double *)buf)[i] : ((float *)buf)[i];
        fprintf(out, "data %zu\n", cap); fwrite(host, 8, cap, out); fprintf(out, "\n");
      }
    }
    for (int pl = 0; pl < 2; pl++) { clReleaseMemObject(in[pl]); clReleaseMemObject(o[pl]); }
    free(host); free(given[0]); free(given[1]); free(buf); clfftDestroyPlan(&h);
  }
  clfftTeardown(); fclose(out); return 0;
}

/* One small transform of every kernel family, each checked against a naive DFT: tests/oclgrind.rs runs this
 * program under Oclgrind's race detector with the GPU tuning profile (FFTX_TUNE=profile=gpu), which finds the
 * races, missing barriers and out-of-bounds local accesses that PoCL, running a work-group's items in order on
 * one core, hides. Families: the single-kernel Stockham, the four-step, the real pre- and post-stages, Rader,
 * Bluestein, the square, 1:k and tiled transposes, a callback, and double precision. Prints one line per
 * transform. */
#include "common.h"
#include <string.h>

static const char *pre_double_it = "float2 pre_double_it(__global void *input, uint inoffset, __global void *userdata)\n"
                                   "{\n"
                                   "    return *((__global float2 *)input + inoffset) * 2.0f;\n"
                                   "}\n";

/* A complex transform of n0 x n1 (n1 = 1 in 1D), forward, checked against the naive DFT: in place or out of
 * place, the 2D result transposed (n1 x n0) or not, with a pre-callback that doubles the input or not. */
static void complex_transform(const struct cl_env *env, const char *what, size_t n0, size_t n1, clfftPrecision precision,
                              int in_place, int transposed, int callback)
{
    size_t lengths[2] = {n0, n1}, count = n0 * n1;
    int dim = n1 > 1 ? 2 : 1;
    double *x = allocate(2 * count * sizeof(double)), *want = allocate(2 * count * sizeof(double));
    double *got = allocate(2 * count * sizeof(double)), *ordered = allocate(2 * count * sizeof(double));
    cl_mem input[2], output[2];
    clfftPlanHandle plan;
    cl_event done;
    size_t i;

    fill_random(x, count, 11, precision);
    naive_dft(x, want, lengths, dim, -1, callback ? 2.0 : 1.0);
    upload(env, x, count, precision, CLFFT_COMPLEX_INTERLEAVED, input);
    upload(env, x, count, precision, CLFFT_COMPLEX_INTERLEAVED, output);
    CHECK(clfftCreateDefaultPlan(&plan, env->context, (clfftDim)dim, lengths));
    CHECK(clfftSetPlanPrecision(plan, precision));
    CHECK(clfftSetResultLocation(plan, in_place ? CLFFT_INPLACE : CLFFT_OUTOFPLACE));
    if (transposed) CHECK(clfftSetPlanTransposeResult(plan, CLFFT_TRANSPOSED));
    if (callback) CHECK(clfftSetPlanCallback(plan, "pre_double_it", pre_double_it, 0, PRECALLBACK, NULL, 0));
    CHECK(clfftBakePlan(plan, 1, (cl_command_queue *)&env->queue, NULL, NULL));
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, (cl_command_queue *)&env->queue, 0, NULL, &done, input,
                                in_place ? NULL : output, NULL));
    CHECK(clWaitForEvents(1, &done));
    CHECK(clReleaseEvent(done));
    download(env, in_place ? input : output, count, precision, CLFFT_COMPLEX_INTERLEAVED, got);
    /* A transposed result holds element (k0, k1) at k1 + k0 n1. */
    for (i = 0; i < count; i++) {
        size_t k0 = i % n0, k1 = i / n0, at = transposed ? k1 + k0 * n1 : i;
        ordered[2 * i] = got[2 * at];
        ordered[2 * i + 1] = got[2 * at + 1];
    }
    double error = relative_rms_error(ordered, want, count);
    printf("%-40s error %.2e\n", what, error);
    REQUIRE(error < tolerance(precision));
    CHECK(clfftDestroyPlan(&plan));
    release_buffers(input, CLFFT_COMPLEX_INTERLEAVED);
    release_buffers(output, CLFFT_COMPLEX_INTERLEAVED);
    free(x), free(want), free(got), free(ordered);
}

/* An R2C of n reals, then the C2R of its result: the spectrum against the naive DFT, the round trip against the
 * input. */
static void real_transforms(const struct cl_env *env, const char *what, size_t n, clfftPrecision precision)
{
    size_t h = n / 2 + 1, i, bytes = real_bytes(precision);
    double *x = allocate(2 * n * sizeof(double)), *want = allocate(2 * n * sizeof(double));
    double *got = allocate(2 * h * sizeof(double)), *back = allocate(2 * n * sizeof(double));
    char *staging = allocate(2 * n * bytes);
    clfftPlanHandle r2c, c2r;
    cl_mem reals, spectrum;
    cl_int err;

    fill_random(x, n, 13, precision);
    for (i = 0; i < n; i++) {
        x[2 * i + 1] = 0;
        if (precision == CLFFT_DOUBLE) ((cl_double *)staging)[i] = x[2 * i];
        else ((cl_float *)staging)[i] = (cl_float)x[2 * i];
    }
    naive_dft(x, want, &n, 1, -1, 1.0);
    reals = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * bytes, staging, &err);
    CHECK(err);
    spectrum = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 2 * h * bytes, NULL, &err);
    CHECK(err);
    CHECK(clfftCreateDefaultPlan(&r2c, env->context, CLFFT_1D, &n));
    CHECK(clfftCreateDefaultPlan(&c2r, env->context, CLFFT_1D, &n));
    clfftPlanHandle plans[2] = {r2c, c2r};
    for (int p = 0; p < 2; p++) {
        CHECK(clfftSetPlanPrecision(plans[p], precision));
        CHECK(clfftSetResultLocation(plans[p], CLFFT_OUTOFPLACE));
        CHECK(clfftSetPlanDistance(plans[p], p ? h : n, p ? n : h));
    }
    CHECK(clfftSetLayout(r2c, CLFFT_REAL, CLFFT_HERMITIAN_INTERLEAVED));
    CHECK(clfftSetLayout(c2r, CLFFT_HERMITIAN_INTERLEAVED, CLFFT_REAL));
    CHECK(clfftEnqueueTransform(r2c, CLFFT_FORWARD, 1, (cl_command_queue *)&env->queue, 0, NULL, NULL, &reals,
                                &spectrum, NULL));
    CHECK(clEnqueueReadBuffer(env->queue, spectrum, CL_TRUE, 0, 2 * h * bytes, staging, 0, NULL, NULL));
    for (i = 0; i < 2 * h; i++)
        got[i] = precision == CLFFT_DOUBLE ? ((cl_double *)staging)[i] : ((cl_float *)staging)[i];
    double error = relative_rms_error(got, want, h);
    CHECK(clfftEnqueueTransform(c2r, CLFFT_BACKWARD, 1, (cl_command_queue *)&env->queue, 0, NULL, NULL, &spectrum,
                                &reals, NULL));
    CHECK(clEnqueueReadBuffer(env->queue, reals, CL_TRUE, 0, n * bytes, staging, 0, NULL, NULL));
    for (i = 0; i < n; i++) {
        back[2 * i] = precision == CLFFT_DOUBLE ? ((cl_double *)staging)[i] : ((cl_float *)staging)[i];
        back[2 * i + 1] = 0;
    }
    double round_trip = relative_rms_error(back, x, n);
    printf("%-40s error %.2e, round trip %.2e\n", what, error, round_trip);
    REQUIRE(error < tolerance(precision) && round_trip < tolerance(precision));
    CHECK(clfftDestroyPlan(&r2c));
    CHECK(clfftDestroyPlan(&c2r));
    CHECK(clReleaseMemObject(reals));
    CHECK(clReleaseMemObject(spectrum));
    free(x), free(want), free(got), free(back), free(staging);
}

int main(int argc, char **argv)
{
    struct cl_env env = open_cl();
    clfftSetupData setup;
    CHECK(clfftInitSetupData(&setup));
    CHECK(clfftSetup(&setup));
    const char *only = argc > 1 ? argv[1] : "";
#define FAMILY(name) (!*only || strcmp(only, name) == 0)
    if (FAMILY("stockham")) complex_transform(&env, "stockham c2c 256", 256, 1, CLFFT_SINGLE, 0, 0, 0);
    if (FAMILY("fourstep")) complex_transform(&env, "four-step c2c 8192", 8192, 1, CLFFT_SINGLE, 0, 0, 0);
    if (FAMILY("real")) real_transforms(&env, "real r2c and c2r 256", 256, CLFFT_SINGLE);
    if (FAMILY("real")) real_transforms(&env, "real r2c and c2r 90", 90, CLFFT_SINGLE);
    if (FAMILY("rader")) complex_transform(&env, "rader c2c 17", 17, 1, CLFFT_SINGLE, 0, 0, 0);
    if (FAMILY("bluestein")) complex_transform(&env, "bluestein c2c 4099", 4099, 1, CLFFT_SINGLE, 0, 0, 0);
    if (FAMILY("transpose")) complex_transform(&env, "square transpose 32x32 in place", 32, 32, CLFFT_SINGLE, 1, 1, 0);
    if (FAMILY("transpose")) complex_transform(&env, "1:k transpose 16x64 in place", 16, 64, CLFFT_SINGLE, 1, 1, 0);
    if (FAMILY("transpose")) complex_transform(&env, "tiled transpose 24x40", 24, 40, CLFFT_SINGLE, 0, 1, 0);
    if (FAMILY("callback")) complex_transform(&env, "pre-callback c2c 256", 256, 1, CLFFT_SINGLE, 0, 0, 1);
    if (FAMILY("double")) complex_transform(&env, "double c2c 512", 512, 1, CLFFT_DOUBLE, 1, 0, 0);
    if (FAMILY("double")) real_transforms(&env, "double r2c and c2r 128", 128, CLFFT_DOUBLE);
    CHECK(clfftTeardown());
    close_cl(&env);
    printf("kernel families ok\n");
    return 0;
}

/* Calling patterns that real clFFT programs use, each run through whichever libclFFT.so.2 the loader finds and
 * checked against a host FFT: scripts/clfft-differential runs it against clFFT 2.12 and fftx and compares the
 * two. Usage: clfft_calling_patterns OUT [PATTERN] (every pattern, or the one named; --list names them).
 * For each pattern it appends one line to OUT:
 *   pattern NAME statuses S1 S2 ... error E
 * the statuses of the calls the pattern makes (clFFT's numbers) and the largest error of the result against
 * the host transform, relative to the largest reference value (-1 where no transform ran), so that a
 * library that accepts a call and computes garbage shows as such. */
#include "common.h"
#include <string.h>

typedef enum { C2C, R2C, C2R } kind_t;

/* A transform's layout: up to two axes and a batch, with strides and distances in its elements' units
 * (complex values for complex and Hermitian data, reals for real data). */
typedef struct {
    size_t len[2], in_stride[2], out_stride[2], in_dist, out_dist;
    int dim, batch;
    kind_t kind;
} shape_t;

static unsigned long long state = 88172645463325252ULL;
static double uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (double)(state % 20001) / 10000.0 - 1.0;
}

/* In-place radix-2 FFT of n (a power of two) complex values at x with stride s, sign -1 forward. */
static void fft(double *x, size_t n, size_t s, int sign)
{
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j)
            for (int c = 0; c < 2; c++) { double t = x[2 * i * s + c]; x[2 * i * s + c] = x[2 * j * s + c]; x[2 * j * s + c] = t; }
    }
    for (size_t m = 2; m <= n; m <<= 1)
        for (size_t k = 0; k < n; k += m)
            for (size_t j = 0; j < m / 2; j++) {
                double a = sign * 2 * M_PI * (double)j / (double)m, wr = cos(a), wi = sin(a);
                double *u = x + 2 * (k + j) * s, *v = x + 2 * (k + j + m / 2) * s;
                double tr = v[0] * wr - v[1] * wi, ti = v[0] * wi + v[1] * wr;
                v[0] = u[0] - tr, v[1] = u[1] - ti, u[0] += tr, u[1] += ti;
            }
}

/* The full complex transform of `count` packed transforms of len[0] x len[1] values, in place. */
static void fft_all(double *x, const shape_t *sh, int sign)
{
    size_t n0 = sh->len[0], n1 = sh->dim == 2 ? sh->len[1] : 1;
    for (int b = 0; b < sh->batch; b++) {
        double *t = x + 2 * b * n0 * n1;
        for (size_t r = 0; r < n1; r++) fft(t + 2 * r * n0, n0, 1, sign);
        if (n1 > 1)
            for (size_t c = 0; c < n0; c++) fft(t + 2 * c, n1, n0, sign);
    }
}

static size_t lines(const shape_t *sh) { return sh->dim == 2 ? sh->len[1] : 1; }

/* Element (b, i0, i1) of a layout, in its elements' units. */
static size_t place(const size_t *stride, size_t dist, int b, size_t i0, size_t i1)
{
    return b * dist + i0 * stride[0] + i1 * stride[1];
}

/* Scalars a layout reaches: the furthest element's end. */
static size_t reach(const shape_t *sh, const size_t *stride, size_t dist, size_t n0, int real)
{
    return (place(stride, dist, sh->batch - 1, n0 - 1, lines(sh) - 1) + 1) * (real ? 1 : 2);
}

typedef struct {
    cl_context context;
    cl_command_queue queue, second_queue;
    FILE *out;
} env_t;

/* One pattern's record. */
static void record(env_t *env, const char *name, const int *statuses, int count, double error)
{
    fprintf(env->out, "pattern %s statuses", name);
    for (int i = 0; i < count; i++) fprintf(env->out, " %d", statuses[i]);
    fprintf(env->out, " error %.3g\n", error);
    fflush(env->out);
}

typedef struct {
    shape_t sh;
    int set_layout;          /* set the strides and distances of sh rather than the defaults */
    int in_place;            /* the plan's placeness */
    int same_buffer;         /* an out-of-place plan given its input buffer as output too */
    int output_arg;          /* in place: 0 a null outputBuffers, 1 another buffer (left as it was) */
    clfftDirection dir;      /* the direction passed to clfftEnqueueTransform */
    int tmp_extra;           /* pass a caller's temporary buffer of this many MiB */
    int rebatch;             /* change the batch to this after the bake, and enqueue without baking again */
    int copy_plan;           /* enqueue a clfftCopyPlan of the baked plan instead of the plan */
    int queues;              /* queues passed to the bake and the enqueue */
    int short_input;         /* an input buffer half the size the layout reaches */
    int short_tmp;           /* a caller's temporary buffer of 64 bytes */
    int tmp_is_input;        /* the input buffer passed as the temporary buffer too */
    int null_output;         /* out of place, a null outputBuffers */
} pattern_t;

/* Runs a pattern: a single-precision plan over sh, random input (Hermitian for C2R), the transform, and its
 * error against the host transform in the direction the library should run (the layouts decide it for real
 * transforms; `expect_dir` for complex ones). */
static void run(env_t *env, const char *name, pattern_t p, int expect_dir)
{
    shape_t sh = p.sh;
    size_t n0 = sh.len[0], n1 = lines(&sh), h0 = sh.kind == C2C ? n0 : n0 / 2 + 1;
    size_t in_n0 = sh.kind == C2R ? h0 : n0, out_n0 = sh.kind == R2C ? h0 : n0;
    int in_real = sh.kind == R2C, out_real = sh.kind == C2R;
    size_t in_scalars = reach(&sh, sh.in_stride, sh.in_dist, in_n0, in_real);
    size_t out_scalars = reach(&sh, sh.out_stride, sh.out_dist, out_n0, out_real);
    size_t scalars = (in_scalars > out_scalars ? in_scalars : out_scalars) + 64;
    float *in_host = allocate(scalars * sizeof(float)), *res = allocate(scalars * sizeof(float));
    double *full = allocate(2 * n0 * n1 * sh.batch * sizeof(double));
    for (size_t i = 0; i < scalars; i++) in_host[i] = (float)uniform();
    /* The logical data: complex values for C2C, reals for R2C; C2R takes the spectrum of random reals. */
    for (int b = 0; b < sh.batch; b++)
        for (size_t i1 = 0; i1 < n1; i1++)
            for (size_t i0 = 0; i0 < n0; i0++) {
                double *v = full + 2 * ((b * n1 + i1) * n0 + i0);
                if (sh.kind == C2C) {
                    size_t at = 2 * place(sh.in_stride, sh.in_dist, b, i0, i1);
                    v[0] = in_host[at], v[1] = in_host[at + 1];
                } else if (sh.kind == R2C) {
                    v[0] = in_host[place(sh.in_stride, sh.in_dist, b, i0, i1)], v[1] = 0;
                } else {
                    v[0] = (float)uniform(), v[1] = 0;
                }
            }
    if (sh.kind == C2R) {
        double *spectrum = allocate(2 * n0 * n1 * sh.batch * sizeof(double));
        memcpy(spectrum, full, 2 * n0 * n1 * sh.batch * sizeof(double));
        fft_all(spectrum, &sh, -1);
        for (int b = 0; b < sh.batch; b++)
            for (size_t i1 = 0; i1 < n1; i1++)
                for (size_t i0 = 0; i0 < h0; i0++) {
                    size_t at = 2 * place(sh.in_stride, sh.in_dist, b, i0, i1);
                    double *v = spectrum + 2 * ((b * n1 + i1) * n0 + i0);
                    in_host[at] = (float)v[0], in_host[at + 1] = (float)v[1];
                }
        free(spectrum);
    } else {
        fft_all(full, &sh, sh.kind == R2C || expect_dir == CLFFT_FORWARD ? -1 : 1);
    }
    /* clFFT's default backward scale is 1 / N: a C2R then returns the reals, a backward C2C its input's
     * transform over N. */
    double scale = sh.kind == C2R || (sh.kind == C2C && expect_dir == CLFFT_BACKWARD) ? 1.0 / (double)(n0 * n1) : 1.0;

    int st[8], ns = 0;
    cl_int err;
    clfftPlanHandle plan;
    size_t lengths[2] = {sh.len[0], sh.len[1]};
    st[ns++] = clfftCreateDefaultPlan(&plan, env->context, sh.dim == 2 ? CLFFT_2D : CLFFT_1D, lengths);
    clfftSetPlanPrecision(plan, CLFFT_SINGLE);
    clfftLayout li = sh.kind == C2C ? CLFFT_COMPLEX_INTERLEAVED : sh.kind == R2C ? CLFFT_REAL : CLFFT_HERMITIAN_INTERLEAVED;
    clfftLayout lo = sh.kind == C2C ? CLFFT_COMPLEX_INTERLEAVED : sh.kind == R2C ? CLFFT_HERMITIAN_INTERLEAVED : CLFFT_REAL;
    clfftSetLayout(plan, li, lo);
    clfftSetResultLocation(plan, p.in_place ? CLFFT_INPLACE : CLFFT_OUTOFPLACE);
    clfftSetPlanBatchSize(plan, p.rebatch ? 1 : sh.batch);
    if (p.set_layout) {
        clfftSetPlanInStride(plan, (clfftDim)sh.dim, sh.in_stride);
        clfftSetPlanOutStride(plan, (clfftDim)sh.dim, sh.out_stride);
        clfftSetPlanDistance(plan, sh.in_dist, sh.out_dist);
    }
    cl_command_queue queues[2] = {env->queue, env->second_queue};
    int nq = p.queues ? p.queues : 1;
    st[ns++] = clfftBakePlan(plan, nq, queues, NULL, NULL);
    if (p.rebatch) st[ns++] = clfftSetPlanBatchSize(plan, sh.batch);
    clfftPlanHandle run_plan = plan;
    if (p.copy_plan) st[ns++] = clfftCopyPlan(&run_plan, env->context, plan);

    size_t in_bytes = p.short_input ? in_scalars * sizeof(float) / 2 : scalars * sizeof(float);
    cl_mem in = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes, in_host, &err);
    for (size_t i = 0; i < scalars; i++) res[i] = 12345.0f;
    cl_mem other = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, scalars * sizeof(float), res, &err);
    size_t tmp_bytes = p.tmp_extra ? (size_t)p.tmp_extra << 20 : p.short_tmp ? 64 : 0;
    cl_mem tmp = tmp_bytes ? clCreateBuffer(env->context, CL_MEM_READ_WRITE, tmp_bytes, NULL, &err) : NULL;
    if (p.tmp_is_input) clRetainMemObject(tmp = in);
    cl_mem *outputs = p.in_place ? (p.output_arg ? &other : NULL) : p.same_buffer ? &in : p.null_output ? NULL : &other;
    cl_event done = NULL;
    int s_enq = clfftEnqueueTransform(run_plan, p.dir, nq, queues, 0, NULL, &done, &in, outputs, tmp);
    st[ns++] = s_enq;
    clFinish(env->queue);
    double error = -1;
    if (s_enq == CLFFT_SUCCESS) {
        cl_mem result = p.in_place || p.same_buffer ? in : other;
        clEnqueueReadBuffer(env->queue, result, CL_TRUE, 0, scalars * sizeof(float), res, 0, NULL, NULL);
        double top = 0, worst = 0;
        for (int b = 0; b < sh.batch; b++)
            for (size_t i1 = 0; i1 < n1; i1++)
                for (size_t i0 = 0; i0 < out_n0; i0++) {
                    double *v = full + 2 * ((b * n1 + i1) * n0 + i0);
                    size_t at = place(sh.out_stride, sh.out_dist, b, i0, i1);
                    double dr = out_real ? res[at] - v[0] : res[2 * at] - v[0] * scale;
                    double di = out_real ? 0 : res[2 * at + 1] - v[1] * scale;
                    double d = sqrt(dr * dr + di * di), m = sqrt(v[0] * v[0] + v[1] * v[1]) * (out_real ? 1 : scale);
                    worst = d > worst ? d : worst, top = m > top ? m : top;
                }
        error = worst / (top > 0 ? top : 1);
        /* In place, a buffer passed as output must be left as it was. */
        if (p.in_place && p.output_arg) {
            clEnqueueReadBuffer(env->queue, other, CL_TRUE, 0, scalars * sizeof(float), res, 0, NULL, NULL);
            for (size_t i = 0; i < scalars; i++)
                if (res[i] != 12345.0f) { error = 1e9; break; }
        }
    }
    if (done) clReleaseEvent(done);
    record(env, name, st, ns, error);
    clReleaseMemObject(in), clReleaseMemObject(other);
    if (tmp) clReleaseMemObject(tmp);
    if (run_plan != plan) clfftDestroyPlan(&run_plan);
    clfftDestroyPlan(&plan);
    free(in_host), free(res), free(full);
}

/* A packed shape: strides and distances as clfftCreateDefaultPlan makes them (real rows of N reals, Hermitian
 * rows of N/2 + 1 values), or, `padded`, real rows of 2 (N/2 + 1) reals as in-place real transforms need. */
static shape_t packed(kind_t kind, int dim, size_t n0, size_t n1, int batch, int padded)
{
    shape_t s = {{n0, dim == 2 ? n1 : 1}, {1, 0}, {1, 0}, 0, 0, dim, batch, kind};
    size_t h0 = kind == C2C ? n0 : n0 / 2 + 1, r0 = kind == C2C ? n0 : padded ? 2 * h0 : n0;
    size_t in0 = kind == R2C ? r0 : h0, out0 = kind == C2R ? r0 : h0;
    s.in_stride[1] = in0, s.out_stride[1] = out0;
    s.in_dist = in0 * s.len[1], s.out_dist = out0 * s.len[1];
    return s;
}

/* clfftGetTmpBufSize before and after the bake: statuses only (the sizes are each library's own). */
static void tmp_size(env_t *env)
{
    size_t n = 1 << 16, size = 0;
    clfftPlanHandle plan;
    int st[3];
    st[0] = clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &n);
    st[1] = clfftGetTmpBufSize(plan, &size);
    clfftBakePlan(plan, 1, &env->queue, NULL, NULL);
    st[2] = clfftGetTmpBufSize(plan, &size);
    record(env, "tmp_buf_size_before_and_after_bake", st, 3, -1);
    clfftDestroyPlan(&plan);
}

typedef struct {
    const char *name;
    pattern_t p;
    clfftDirection expect_dir; /* the direction the result is checked in */
} named_pattern_t;

/* Shapes whose strides and distances are set rather than the defaults. */
#define SET(shape) .sh = shape, .set_layout = 1

int main(int argc, char **argv)
{
    const named_pattern_t patterns[] = {
        /* Real transforms take their direction from their layouts, whatever the argument: clFFT's own tests pass
         * ENDDIRECTION. */
        {"r2c_enddirection", {SET(packed(R2C, 1, 64, 1, 2, 0)), .dir = ENDDIRECTION}, CLFFT_FORWARD},
        {"r2c_backward", {SET(packed(R2C, 1, 64, 1, 2, 0)), .dir = CLFFT_BACKWARD}, CLFFT_FORWARD},
        {"c2r_enddirection", {SET(packed(C2R, 2, 16, 8, 2, 0)), .dir = ENDDIRECTION}, CLFFT_BACKWARD},
        {"c2r_forward", {SET(packed(C2R, 2, 16, 8, 2, 0)), .dir = CLFFT_FORWARD}, CLFFT_BACKWARD},
        /* A complex transform given ENDDIRECTION. */
        {"c2c_enddirection", {.sh = packed(C2C, 1, 64, 1, 2, 0), .dir = ENDDIRECTION}, CLFFT_BACKWARD},
        /* The same buffer as input and output of an out-of-place plan, the layouts addressing the same elements. */
        {"same_buffer_c2c_1d", {.sh = packed(C2C, 1, 1024, 1, 3, 0), .same_buffer = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"same_buffer_c2c_2d", {.sh = packed(C2C, 2, 64, 32, 2, 0), .same_buffer = 1, .dir = CLFFT_BACKWARD}, CLFFT_BACKWARD},
        {"same_buffer_c2c_65536", {.sh = packed(C2C, 1, 65536, 1, 1, 0), .same_buffer = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"same_buffer_r2c_padded", {SET(packed(R2C, 1, 64, 1, 2, 1)), .same_buffer = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"same_buffer_c2r_padded", {SET(packed(C2R, 2, 32, 16, 2, 1)), .same_buffer = 1, .dir = CLFFT_BACKWARD}, CLFFT_BACKWARD},
        /* The same buffer where the layouts address different elements: real rows of N reals, complex rows of
         * N/2 + 1 values. */
        {"same_buffer_r2c_packed", {SET(packed(R2C, 1, 64, 1, 3, 0)), .same_buffer = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        /* In place, the output argument is ignored: null, or another buffer, which is left as it was. */
        {"in_place_null_output", {.sh = packed(C2C, 1, 256, 1, 2, 0), .in_place = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"in_place_other_output", {.sh = packed(C2C, 1, 256, 1, 2, 0), .in_place = 1, .output_arg = 1, .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        /* In-place real layouts whose real and complex rows do not coincide: clFFT's tests
         * very_small_1D_in_place_different_input_output_non_unit_stride_and_distance_real_to_complex. */
        {"in_place_r2c_strided", {SET(((shape_t){{4, 1}, {16, 0}, {2, 0}, 4 * 16 + 128, 4 * 2 + 2, 1, 2, R2C})), .in_place = 1,
                                  .dir = ENDDIRECTION}, CLFFT_FORWARD},
        {"in_place_c2r_strided", {SET(((shape_t){{8, 1}, {3, 0}, {5, 0}, 40, 50, 1, 3, C2R})), .in_place = 1,
                                  .dir = CLFFT_BACKWARD}, CLFFT_BACKWARD},
        /* In-place complex layouts of different strides and distances. */
        {"in_place_c2c_strided", {SET(((shape_t){{8, 1}, {2, 0}, {3, 0}, 20, 30, 1, 2, C2C})), .in_place = 1,
                                  .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        /* A caller's temporary buffer larger than the plan needs. */
        {"large_tmp_buffer", {.sh = packed(C2C, 1, 1 << 16, 1, 2, 0), .tmp_extra = 16, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        /* A plan whose batch changes after its bake, enqueued without another bake. */
        {"changed_after_bake", {.sh = packed(C2C, 1, 128, 1, 3, 0), .rebatch = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        /* A clfftCopyPlan of a baked plan, enqueued. */
        {"copy_of_baked_plan", {SET(packed(R2C, 1, 64, 1, 2, 0)), .copy_plan = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        /* Two queues of one device in the bake and the enqueue. */
        {"two_queues", {.sh = packed(C2C, 1, 64, 1, 2, 0), .queues = 2, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        /* Calls fftx refuses, each with what clFFT does with it (docs/status.md). */
        {"null_output_out_of_place", {.sh = packed(C2C, 1, 64, 1, 2, 0), .null_output = 1, .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"input_buffer_too_small", {.sh = packed(C2C, 1, 1024, 1, 4, 0), .short_input = 1, .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"tmp_buffer_too_small", {.sh = packed(C2C, 1, 1 << 16, 1, 2, 0), .short_tmp = 1, .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"tmp_buffer_is_the_input", {.sh = packed(C2C, 1, 1 << 16, 1, 2, 0), .tmp_is_input = 1, .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"output_layout_overlaps_itself", {SET(((shape_t){{64, 1}, {1, 0}, {1, 0}, 64, 32, 1, 2, C2C})),
                                           .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"zero_input_stride", {SET(((shape_t){{64, 1}, {0, 0}, {1, 0}, 64, 64, 1, 2, C2C})), .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"zero_distance", {SET(((shape_t){{64, 1}, {1, 0}, {1, 0}, 0, 0, 1, 2, C2C})), .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"c2c_direction_5", {.sh = packed(C2C, 1, 64, 1, 2, 0), .dir = (clfftDirection)5}, CLFFT_BACKWARD},
    };
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) printf("%s\n", patterns[i].name);
        printf("tmp_buf_size_before_and_after_bake\n");
        return 0;
    }
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: clfft_calling_patterns --list | OUT [PATTERN]\n");
        return 2;
    }
    env_t env;
    env.out = fopen(argv[1], "a");
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    env.context = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
    env.queue = clCreateCommandQueue(env.context, device, 0, NULL);
    env.second_queue = clCreateCommandQueue(env.context, device, 0, NULL);
    clfftSetupData setup;
    clfftInitSetupData(&setup);
    clfftSetup(&setup);

    const char *only = argc == 3 ? argv[2] : NULL;
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
        if (!only || strcmp(only, patterns[i].name) == 0) run(&env, patterns[i].name, patterns[i].p, patterns[i].expect_dir);
    if (!only || strcmp(only, "tmp_buf_size_before_and_after_bake") == 0) tmp_size(&env);

    clfftTeardown();
    fclose(env.out);
    return 0;
}

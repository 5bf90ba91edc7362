/* Calling patterns that real clFFT programs use, each run through whichever libclFFT.so.2 the loader finds and
 * checked against a host FFT: scripts/clfft-differential runs it against clFFT 2.12 and fftx and compares the
 * two. Usage: clfft_calling_patterns OUT [PATTERN] (every pattern, or the one named; --list names them).
 * For each pattern it appends one line to OUT:
 *   pattern NAME statuses S1 S2 ... error E
 * the statuses of the calls the pattern makes (clFFT's numbers) and the largest error of the result against
 * the host transform, relative to the largest reference value (-1 where no transform ran), so that a
 * library that accepts a call and computes garbage shows as such. Besides the transform patterns, dedicated
 * checks make the calls the status table (docs/status.md) lists: handles, queues, contexts, callbacks,
 * transposed results. --list names a check that needs an environment (two devices, or c-tests/cltrace.c
 * preloaded) with a tab and its assignments, separated by ';'; without a PATTERN those checks do not run. */
#include "common.h"
#include <pthread.h>
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
    cl_device_id device;
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
    int tmp_elsewhere;       /* the caller's temporary buffer (tmp_extra MiB) of another context */
    int data_elsewhere;      /* the input and output buffers of another context (read back on its queue) */
    int short_sub_buffer;    /* the input a sub-buffer half the size the layout reaches, of a buffer that holds
                              * other values past it */
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
    cl_context data_context = env->context;
    cl_command_queue read_queue = env->queue;
    if (p.data_elsewhere) {
        data_context = clCreateContext(NULL, 1, &env->device, NULL, NULL, NULL);
        read_queue = clCreateCommandQueue(data_context, env->device, 0, NULL);
    }
    cl_mem in = clCreateBuffer(data_context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes, in_host, &err);
    cl_mem parent = NULL;
    if (p.short_sub_buffer) {
        /* The parent holds the first half of the input, then zeros: the sub-buffer ends at the half. */
        float *held = calloc(scalars, sizeof(float));
        memcpy(held, in_host, in_scalars * sizeof(float) / 2);
        clReleaseMemObject(in);
        parent = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, scalars * sizeof(float), held, &err);
        cl_buffer_region region = {0, in_scalars * sizeof(float) / 2};
        in = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        free(held);
    }
    for (size_t i = 0; i < scalars; i++) res[i] = 12345.0f;
    cl_mem other = clCreateBuffer(data_context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, scalars * sizeof(float), res, &err);
    size_t tmp_bytes = p.tmp_extra ? (size_t)p.tmp_extra << 20 : p.short_tmp ? 64 : 0;
    cl_context tmp_context = p.tmp_elsewhere ? clCreateContext(NULL, 1, &env->device, NULL, NULL, NULL) : env->context;
    cl_mem tmp = tmp_bytes ? clCreateBuffer(tmp_context, CL_MEM_READ_WRITE, tmp_bytes, NULL, &err) : NULL;
    if (p.tmp_is_input) clRetainMemObject(tmp = in);
    cl_mem *outputs = p.in_place ? (p.output_arg ? &other : NULL) : p.same_buffer ? &in : p.null_output ? NULL : &other;
    cl_event done = NULL;
    int s_enq = clfftEnqueueTransform(run_plan, p.dir, nq, queues, 0, NULL, &done, &in, outputs, tmp);
    st[ns++] = s_enq;
    clFinish(env->queue);
    double error = -1;
    if (s_enq == CLFFT_SUCCESS) {
        cl_mem result = p.in_place || p.same_buffer ? in : other;
        clEnqueueReadBuffer(read_queue, result, CL_TRUE, 0, scalars * sizeof(float), res, 0, NULL, NULL);
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
            clEnqueueReadBuffer(read_queue, other, CL_TRUE, 0, scalars * sizeof(float), res, 0, NULL, NULL);
            for (size_t i = 0; i < scalars; i++)
                if (res[i] != 12345.0f) { error = 1e9; break; }
        }
    }
    if (done) clReleaseEvent(done);
    record(env, name, st, ns, error);
    clReleaseMemObject(in), clReleaseMemObject(other);
    if (parent) clReleaseMemObject(parent);
    if (tmp) clReleaseMemObject(tmp);
    if (p.tmp_elsewhere) clReleaseContext(tmp_context);
    if (p.data_elsewhere) clReleaseCommandQueue(read_queue), clReleaseContext(data_context);
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

/* Dedicated checks: calls that no transform pattern makes (handles, queues, contexts, callbacks, transposed
 * results, ...). Each records the statuses of its calls and, where a transform ran, its error: a forward
 * single-precision C2C of packed data, checked as the patterns are. */
typedef struct {
    int st[16], n;
    double error;
} tally_t;
#define NOTE(call) (t.st[t.n++] = (int)(call))

/* A single-precision C2C plan of packed data, n0 x n1 (2D where n1 > 1) by `batch`. */
static clfftPlanHandle c2c_plan(cl_context context, size_t n0, size_t n1, int batch, int in_place, int *status)
{
    clfftPlanHandle plan = 0;
    size_t len[2] = {n0, n1};
    *status = clfftCreateDefaultPlan(&plan, context, n1 > 1 ? CLFFT_2D : CLFFT_1D, len);
    clfftSetPlanPrecision(plan, CLFFT_SINGLE);
    clfftSetPlanBatchSize(plan, (size_t)batch);
    clfftSetResultLocation(plan, in_place ? CLFFT_INPLACE : CLFFT_OUTOFPLACE);
    return plan;
}

/* `count` random complex values on the host, the same in `in`, and `out` filled with 12345. */
typedef struct {
    size_t count;
    float *host;
    cl_mem in, out;
} data_t;

static data_t c2c_data(cl_context context, size_t count)
{
    data_t d = {count, allocate(2 * count * sizeof(float)), NULL, NULL};
    float *fill = allocate(2 * count * sizeof(float));
    for (size_t i = 0; i < 2 * count; i++) d.host[i] = (float)uniform(), fill[i] = 12345.0f;
    d.in = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2 * count * sizeof(float), d.host, NULL);
    d.out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2 * count * sizeof(float), fill, NULL);
    free(fill);
    return d;
}

static void release_data(data_t *d)
{
    clReleaseMemObject(d->in), clReleaseMemObject(d->out), free(d->host);
}

/* The error of the forward transform of d's input times `scale`, read from `result` on `queue`, as run()
 * measures it: element (i0, i1) of transform b at b n0 n1 + i0 + i1 n0, or `transposed` at b n0 n1 + i1 + i0 n1. */
static double c2c_error(cl_command_queue queue, const data_t *d, cl_mem result, size_t n0, size_t n1, int batch,
                        int transposed, double scale)
{
    size_t n = n0 * n1 * batch;
    float *res = allocate(2 * n * sizeof(float));
    double *full = allocate(2 * n * sizeof(double));
    if (clEnqueueReadBuffer(queue, result, CL_TRUE, 0, 2 * n * sizeof(float), res, 0, NULL, NULL) != CL_SUCCESS) {
        free(res), free(full);
        return 1e9;
    }
    for (size_t i = 0; i < 2 * n; i++) full[i] = d->host[i];
    shape_t sh = packed(C2C, n1 > 1 ? 2 : 1, n0, n1, batch, 0);
    fft_all(full, &sh, -1);
    double top = 0, worst = 0;
    for (int b = 0; b < batch; b++)
        for (size_t i1 = 0; i1 < n1; i1++)
            for (size_t i0 = 0; i0 < n0; i0++) {
                double *v = full + 2 * (b * n0 * n1 + i1 * n0 + i0);
                size_t at = 2 * (b * n0 * n1 + (transposed ? i1 + i0 * n1 : i0 + i1 * n0));
                double dr = res[at] - scale * v[0], di = res[at + 1] - scale * v[1];
                double e = sqrt(dr * dr + di * di), m = scale * sqrt(v[0] * v[0] + v[1] * v[1]);
                worst = e > worst ? e : worst, top = m > top ? m : top;
            }
    free(res), free(full);
    return worst / (top > 0 ? top : 1);
}

/* Enqueues plan forward on `queue` over d (in place, or into d->out) and notes the status; the error of the
 * result where it succeeded, else -1. */
static double forward(tally_t *tally, clfftPlanHandle plan, cl_command_queue queue, data_t *d, size_t n0, size_t n1,
                      int batch, int in_place)
{
    cl_command_queue q = queue;
    int s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &q, 0, NULL, NULL, &d->in, in_place ? NULL : &d->out, NULL);
    tally->st[tally->n++] = s;
    if (s != CLFFT_SUCCESS) return -1;
    clFinish(queue);
    return c2c_error(queue, d, in_place ? d->in : d->out, n0, n1, batch, 0, 1.0);
}

/* A second context on the same device, with a queue. */
static cl_context other_context(env_t *env, cl_command_queue *queue)
{
    cl_context context = clCreateContext(NULL, 1, &env->device, NULL, NULL, NULL);
    if (queue) *queue = clCreateCommandQueue(context, env->device, 0, NULL);
    return context;
}

static void null_input_buffers(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 1, &s);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, NULL, NULL, NULL));
    clFinish(env->queue);
    clfftDestroyPlan(&plan);
    *tally = t;
}

/* clfftCreateDefaultPlan with a null context, then the plan baked on and enqueued to a queue. */
static void null_context_create(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(NULL, 64, 1, 2, 0, &s);
    NOTE(s);
    if (s == CLFFT_SUCCESS) {
        data_t d = c2c_data(env->context, 128);
        NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
        t.error = forward(&t, plan, env->queue, &d, 64, 1, 2, 0);
        release_data(&d);
        clfftDestroyPlan(&plan);
    }
    *tally = t;
}

/* clfftCopyPlan of a baked plan into a null context, the copy then enqueued. */
static void null_context_copy(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s), copy = 0;
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftCopyPlan(&copy, NULL, plan));
    if (s == CLFFT_SUCCESS) {
        data_t d = c2c_data(env->context, 128);
        t.error = forward(&t, copy, env->queue, &d, 64, 1, 2, 0);
        release_data(&d);
        clfftDestroyPlan(&copy);
    }
    clfftDestroyPlan(&plan);
    *tally = t;
}

/* A bake given a null queue (`array` 0) or a null queue array (`array` 1), then an enqueue on a real queue. */
static void null_queue_bake(env_t *env, tally_t *tally, int array)
{
    tally_t t = {{0}, 0, -1};
    int s;
    cl_command_queue none = NULL;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, array ? NULL : &none, NULL, NULL));
    t.error = forward(&t, plan, env->queue, &d, 64, 1, 2, 0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void null_queue_in_bake(env_t *env, tally_t *tally) { null_queue_bake(env, tally, 0); }
static void null_queue_array_in_bake(env_t *env, tally_t *tally) { null_queue_bake(env, tally, 1); }

/* A plan baked on a queue, enqueued with a null queue (`array` 0) or a null queue array (`array` 1). */
static void null_queue_enqueue(env_t *env, tally_t *tally, int array)
{
    tally_t t = {{0}, 0, -1};
    int s;
    cl_command_queue none = NULL;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, array ? NULL : &none, 0, NULL, NULL, &d.in, &d.out, NULL));
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) t.error = c2c_error(env->queue, &d, d.out, 64, 1, 2, 0, 1.0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void null_queue_in_enqueue(env_t *env, tally_t *tally) { null_queue_enqueue(env, tally, 0); }
static void null_queue_array_in_enqueue(env_t *env, tally_t *tally) { null_queue_enqueue(env, tally, 1); }

/* An enqueue with numWaitEvents 1 and a null event list. */
static void wait_count_without_list(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 1, NULL, NULL, &d.in, &d.out, NULL));
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) t.error = c2c_error(env->queue, &d, d.out, 64, 1, 2, 0, 1.0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}

/* Every kind of call on a handle that is no plan: set and get batch, bake, tmp size, enqueue, copy, destroy. */
static void calls_on_handle(env_t *env, tally_t *t, clfftPlanHandle handle)
{
    size_t batch = 0, size = 0;
    data_t d = c2c_data(env->context, 128);
    clfftPlanHandle h = handle, copy = 0;
    t->st[t->n++] = clfftSetPlanBatchSize(h, 2);
    t->st[t->n++] = clfftGetPlanBatchSize(h, &batch);
    t->st[t->n++] = clfftBakePlan(h, 1, &env->queue, NULL, NULL);
    t->st[t->n++] = clfftGetTmpBufSize(h, &size);
    t->st[t->n++] = clfftEnqueueTransform(h, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &d.in, &d.out, NULL);
    clFinish(env->queue);
    t->st[t->n++] = clfftCopyPlan(&copy, env->context, h);
    t->st[t->n++] = clfftDestroyPlan(&h);
    release_data(&d);
}

static void unknown_handle(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    calls_on_handle(env, &t, 123456);
    *tally = t;
}

static void destroyed_handle(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s), stale = plan;
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL)), NOTE(clfftDestroyPlan(&plan));
    calls_on_handle(env, &t, stale);
    *tally = t;
}

/* A second destroy with the handle as it was, then with the variable the first destroy was given. */
static void double_destroy(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s), stale = plan;
    NOTE(s), NOTE(clfftDestroyPlan(&plan)), NOTE(clfftDestroyPlan(&stale)), NOTE(clfftDestroyPlan(&plan));
    *tally = t;
}

typedef struct {
    pthread_barrier_t *start;
    clfftPlanHandle plan;
    int status;
} destroyer_t;

static void *destroy_after_barrier(void *arg)
{
    destroyer_t *d = arg;
    pthread_barrier_wait(d->start);
    d->status = clfftDestroyPlan(&d->plan);
    return NULL;
}

/* 200 plans, each destroyed by two threads at once: records the two statuses of the first pair that is not one
 * CLFFT_SUCCESS and one CLFFT_INVALID_PLAN, else of the last pair. */
static void two_threads_destroy(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 200; i++) {
        int s;
        clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 1, 0, &s);
        destroyer_t a = {&start, plan, 0}, b = {&start, plan, 0};
        pthread_t ta, tb;
        pthread_create(&ta, NULL, destroy_after_barrier, &a), pthread_create(&tb, NULL, destroy_after_barrier, &b);
        pthread_join(ta, NULL), pthread_join(tb, NULL);
        t.n = 0;
        NOTE(a.status), NOTE(b.status);
        int expected = (a.status == CLFFT_SUCCESS) + (b.status == CLFFT_SUCCESS) == 1 &&
                       (a.status == CLFFT_INVALID_PLAN || b.status == CLFFT_INVALID_PLAN);
        if (!expected) break;
    }
    pthread_barrier_destroy(&start);
    *tally = t;
}

/* Lengths 2^32 x 2^32, whose product is 2^64: at the create (`set` 0) or set on a 64 x 64 plan (`set` 1),
 * then a bake. */
static void lengths_product_overflows(env_t *env, tally_t *tally, int set)
{
    tally_t t = {{0}, 0, -1};
    size_t huge[2] = {(size_t)1 << 32, (size_t)1 << 32}, small[2] = {64, 64};
    clfftPlanHandle plan = 0;
    int s = clfftCreateDefaultPlan(&plan, env->context, CLFFT_2D, set ? small : huge);
    NOTE(s);
    if (set) NOTE(s = clfftSetPlanLength(plan, CLFFT_2D, huge));
    if (s == CLFFT_SUCCESS) NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void lengths_product_overflows_at_create(env_t *env, tally_t *tally) { lengths_product_overflows(env, tally, 0); }
static void lengths_product_overflows_at_set_length(env_t *env, tally_t *tally) { lengths_product_overflows(env, tally, 1); }

/* A 64-point plan whose input stride (`batch` 0) or batch with distance 64 (`batch` 1) reaches past 2^64
 * bytes, baked and enqueued on buffers of 128 values. */
static void extent_overflows(env_t *env, tally_t *tally, int batch)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    NOTE(s);
    if (batch) {
        NOTE(clfftSetPlanBatchSize(plan, (size_t)1 << 60));
    } else {
        size_t stride = (size_t)1 << 60;
        NOTE(clfftSetPlanInStride(plan, CLFFT_1D, &stride));
    }
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    /* The error against the first two transforms, the only ones the buffers hold. */
    t.error = forward(&t, plan, env->queue, &d, 64, 1, 2, 0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void in_stride_extent_overflows(env_t *env, tally_t *tally) { extent_overflows(env, tally, 0); }
static void batch_extent_overflows(env_t *env, tally_t *tally) { extent_overflows(env, tally, 1); }

/* A 1D plan of the fewest single-precision complex values, a power of two, whose data exceed the device's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE (2^31 for PoCL's 8 GiB): the bake. No buffer can hold its data, so nothing is
 * enqueued. */
static void data_beyond_max_alloc(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(env->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    size_t n = 1;
    while (8 * (cl_ulong)n <= max_alloc) n <<= 1;
    clfftPlanHandle plan = c2c_plan(env->context, n, 1, 1, 0, &s);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    clfftDestroyPlan(&plan);
    *tally = t;
}

/* clfftSetPlanBatchSize(0) on an n0 x n1 plan, then a bake and an enqueue on buffers of one transform. A batch
 * of no transforms leaves the output as it was: the error is the largest change to it, relative to its values. */
static void batch_zero(env_t *env, tally_t *tally, size_t n0, size_t n1)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, n0, n1, 1, 0, &s);
    data_t d = c2c_data(env->context, n0 * n1);
    NOTE(s), NOTE(clfftSetPlanBatchSize(plan, 0)), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &d.in, &d.out, NULL));
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) {
        float *res = allocate(2 * n0 * n1 * sizeof(float));
        clEnqueueReadBuffer(env->queue, d.out, CL_TRUE, 0, 2 * n0 * n1 * sizeof(float), res, 0, NULL, NULL);
        t.error = 0;
        for (size_t i = 0; i < 2 * n0 * n1; i++) {
            double change = fabs(res[i] - 12345.0) / 12345.0;
            t.error = change > t.error ? change : t.error;
        }
        free(res);
    }
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void batch_zero_64(env_t *env, tally_t *tally) { batch_zero(env, tally, 64, 1); }
static void batch_zero_64x64(env_t *env, tally_t *tally) { batch_zero(env, tally, 64, 64); }
static void batch_zero_65536(env_t *env, tally_t *tally) { batch_zero(env, tally, 65536, 1); }

/* Two planes of one buffer: out of place from interleaved input into planar output whose planes are one
 * buffer (`in_place` 0), or planar data in place whose planes are one buffer, which holds the real and the
 * imaginary parts both (`in_place` 1). */
static void planar_planes_overlap(env_t *env, tally_t *tally, int in_place)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, in_place, &s);
    data_t d = c2c_data(env->context, 128);
    if (in_place)
        for (size_t k = 0; k < 128; k++) d.host[2 * k + 1] = d.host[2 * k]; /* what the one buffer holds twice */
    float *plane = allocate(128 * sizeof(float));
    for (size_t k = 0; k < 128; k++) plane[k] = d.host[2 * k];
    cl_mem one = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 128 * sizeof(float), plane, NULL);
    cl_mem twice[2] = {one, one};
    NOTE(s), NOTE(clfftSetLayout(plan, in_place ? CLFFT_COMPLEX_PLANAR : CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_PLANAR));
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, in_place ? twice : &d.in,
                                   in_place ? NULL : twice, NULL));
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) {
        /* The result: the buffer as the real part and as the imaginary part. */
        float *res = allocate(256 * sizeof(float));
        clEnqueueReadBuffer(env->queue, one, CL_TRUE, 0, 128 * sizeof(float), plane, 0, NULL, NULL);
        for (size_t k = 0; k < 128; k++) res[2 * k] = res[2 * k + 1] = plane[k];
        clEnqueueWriteBuffer(env->queue, d.out, CL_TRUE, 0, 256 * sizeof(float), res, 0, NULL, NULL);
        t.error = c2c_error(env->queue, &d, d.out, 64, 1, 2, 0, 1.0);
        free(res);
    }
    clReleaseMemObject(one), free(plane);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void planar_output_planes_overlap(env_t *env, tally_t *tally) { planar_planes_overlap(env, tally, 0); }
static void planar_in_place_planes_overlap(env_t *env, tally_t *tally) { planar_planes_overlap(env, tally, 1); }

/* A transposed result: of a 3D plan of 8 x 4 x `nz` (1 x 64 x 1 where nz is 0: a 1D plan of 64) out of place,
 * checked as the 2D transpose (element (k0, k1) at k1 + k0 n1; for 1D, at k0). */
static void transposed_plan(env_t *env, tally_t *tally, size_t nz)
{
    tally_t t = {{0}, 0, -1};
    size_t len[3] = {nz ? 8 : 64, 4, nz}, n0 = len[0], n1 = nz ? 4 : 1;
    clfftPlanHandle plan;
    NOTE(clfftCreateDefaultPlan(&plan, env->context, nz ? CLFFT_3D : CLFFT_1D, len));
    clfftSetPlanPrecision(plan, CLFFT_SINGLE), clfftSetResultLocation(plan, CLFFT_OUTOFPLACE);
    NOTE(clfftSetPlanTransposeResult(plan, CLFFT_TRANSPOSED));
    int s = clfftBakePlan(plan, 1, &env->queue, NULL, NULL);
    NOTE(s);
    if (s == CLFFT_SUCCESS) {
        data_t d = c2c_data(env->context, n0 * n1 * (nz ? nz : 1));
        NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &d.in, &d.out, NULL));
        clFinish(env->queue);
        /* Only a 3D plan with one axis of length 1 has a 2D transform to check against. */
        if (s == CLFFT_SUCCESS && nz <= 1) t.error = c2c_error(env->queue, &d, d.out, n0, n1, 1, 1, 1.0);
        release_data(&d);
    }
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void transposed_1d(env_t *env, tally_t *tally) { transposed_plan(env, tally, 0); }
static void transposed_3d(env_t *env, tally_t *tally) { transposed_plan(env, tally, 2); }
static void transposed_3d_with_unit_axis(env_t *env, tally_t *tally) { transposed_plan(env, tally, 1); }

/* A transposed result of a 2D R2C plan, 16 x 8, out of place: the bake and the enqueue. */
static void transposed_2d_r2c(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    size_t len[2] = {16, 8};
    clfftPlanHandle plan;
    NOTE(clfftCreateDefaultPlan(&plan, env->context, CLFFT_2D, len));
    clfftSetPlanPrecision(plan, CLFFT_SINGLE), clfftSetResultLocation(plan, CLFFT_OUTOFPLACE);
    NOTE(clfftSetLayout(plan, CLFFT_REAL, CLFFT_HERMITIAN_INTERLEAVED));
    NOTE(clfftSetPlanTransposeResult(plan, CLFFT_TRANSPOSED));
    int s = clfftBakePlan(plan, 1, &env->queue, NULL, NULL);
    NOTE(s);
    if (s == CLFFT_SUCCESS) {
        data_t d = c2c_data(env->context, 128);
        NOTE(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &d.in, &d.out, NULL));
        clFinish(env->queue);
        release_data(&d);
    }
    clfftDestroyPlan(&plan);
    *tally = t;
}

/* Identity callbacks: a pre-callback that reads the input, a post-callback that writes the result. */
static const char *const pre_identity =
    "float2 pre(__global void *in, uint k, __global void *u) { return ((__global float2 *)in)[k]; }";
static const char *const post_identity =
    "void post(__global void *out, uint k, __global void *u, float2 v) { ((__global float2 *)out)[k] = v; }";
/* A pre-callback that multiplies the input by the user data's first float. */
static const char *const pre_scaled =
    "float2 pre(__global void *in, uint k, __global void *u) { return ((__global float2 *)in)[k] * ((__global float *)u)[0]; }";

/* An in-place transposed result of n0 x n1 packed data, or of 8 x 8 data of strides [1, 10] (`n0` 0), with an
 * identity post-callback where `callback` is 1. */
static void transposed_in_place(env_t *env, tally_t *tally, size_t n0, size_t n1, int callback)
{
    tally_t t = {{0}, 0, -1};
    int strided = n0 == 0, s;
    if (strided) n0 = n1 = 8;
    clfftPlanHandle plan = c2c_plan(env->context, n0, n1, 1, 1, &s);
    data_t d = c2c_data(env->context, strided ? 80 : n0 * n1);
    NOTE(s), NOTE(clfftSetPlanTransposeResult(plan, CLFFT_TRANSPOSED));
    if (strided) {
        size_t strides[2] = {1, 10};
        NOTE(clfftSetPlanInStride(plan, CLFFT_2D, strides)), NOTE(clfftSetPlanOutStride(plan, CLFFT_2D, strides));
        NOTE(clfftSetPlanDistance(plan, 80, 80));
    }
    if (callback) NOTE(clfftSetPlanCallback(plan, "post", post_identity, 0, POSTCALLBACK, NULL, 0));
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &d.in, NULL, NULL));
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) {
        if (strided) {
            /* Rows of 10 values, 8 of them data: the packed 8 x 8 input, and the result packed for the check. */
            float *res = allocate(160 * sizeof(float)), *packed_in = allocate(128 * sizeof(float));
            clEnqueueReadBuffer(env->queue, d.in, CL_TRUE, 0, 160 * sizeof(float), res, 0, NULL, NULL);
            for (size_t r = 0; r < 8; r++) memcpy(packed_in + 16 * r, d.host + 20 * r, 16 * sizeof(float));
            for (size_t r = 0; r < 8; r++) memmove(res + 16 * r, res + 20 * r, 16 * sizeof(float));
            memcpy(d.host, packed_in, 128 * sizeof(float));
            clEnqueueWriteBuffer(env->queue, d.out, CL_TRUE, 0, 128 * sizeof(float), res, 0, NULL, NULL);
            free(res), free(packed_in);
        } else {
            clEnqueueCopyBuffer(env->queue, d.in, d.out, 0, 0, 2 * n0 * n1 * sizeof(float), 0, NULL, NULL);
        }
        t.error = c2c_error(env->queue, &d, d.out, n0, n1, 1, 1, 1.0);
    }
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void transposed_in_place_not_packed(env_t *env, tally_t *tally) { transposed_in_place(env, tally, 0, 0, 0); }
static void transposed_in_place_8x8(env_t *env, tally_t *tally) { transposed_in_place(env, tally, 8, 8, 0); }
static void transposed_in_place_12x8(env_t *env, tally_t *tally) { transposed_in_place(env, tally, 12, 8, 0); }
static void transposed_in_place_post_callback(env_t *env, tally_t *tally) { transposed_in_place(env, tally, 8, 8, 1); }

/* clfftSetPlanCallback with a null name (`which` 0), a null code (1), type 2 (2), or a buffer count of -1
 * (3), then a bake and an enqueue of the 64-point plan. */
static void callback_argument(env_t *env, tally_t *tally, int which)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    NOTE(s);
    NOTE(clfftSetPlanCallback(plan, which == 0 ? NULL : "pre", which == 1 ? NULL : pre_identity, 0,
                              which == 2 ? (clfftCallbackType)2 : PRECALLBACK, which == 3 ? &d.out : NULL,
                              which == 3 ? -1 : 0));
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    t.error = forward(&t, plan, env->queue, &d, 64, 1, 2, 0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void callback_null_name(env_t *env, tally_t *tally) { callback_argument(env, tally, 0); }
static void callback_null_code(env_t *env, tally_t *tally) { callback_argument(env, tally, 1); }
static void callback_type_2(env_t *env, tally_t *tally) { callback_argument(env, tally, 2); }
static void callback_negative_buffer_count(env_t *env, tally_t *tally) { callback_argument(env, tally, 3); }

/* A buffer of one float, 2, in `context`. */
static cl_mem two(cl_context context)
{
    float v[4] = {2, 2, 2, 2};
    return clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v, NULL);
}

/* A pre-callback scaling by user data of another context than the plan's: set, bake, enqueue. */
static void callback_user_data_of_another_context(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    cl_context elsewhere = other_context(env, NULL);
    cl_mem user = two(elsewhere);
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    NOTE(s), NOTE(clfftSetPlanCallback(plan, "pre", pre_scaled, 0, PRECALLBACK, &user, 1));
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &d.in, &d.out, NULL));
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) t.error = c2c_error(env->queue, &d, d.out, 64, 1, 2, 0, 2.0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    clReleaseMemObject(user), clReleaseContext(elsewhere);
    *tally = t;
}

/* A baked plan with a pre-callback scaling by user data of the plan's context, copied into another context,
 * the copy baked and enqueued there. */
static void copy_with_user_data_into_another_context(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    cl_command_queue queue;
    cl_context elsewhere = other_context(env, &queue);
    cl_mem user = two(env->context);
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s), copy = 0;
    NOTE(s), NOTE(clfftSetPlanCallback(plan, "pre", pre_scaled, 0, PRECALLBACK, &user, 1));
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    NOTE(s = clfftCopyPlan(&copy, elsewhere, plan));
    if (s == CLFFT_SUCCESS) {
        data_t d = c2c_data(elsewhere, 128);
        NOTE(clfftBakePlan(copy, 1, &queue, NULL, NULL));
        NOTE(s = clfftEnqueueTransform(copy, CLFFT_FORWARD, 1, &queue, 0, NULL, NULL, &d.in, &d.out, NULL));
        clFinish(queue);
        if (s == CLFFT_SUCCESS) t.error = c2c_error(queue, &d, d.out, 64, 1, 2, 0, 2.0);
        release_data(&d);
        clfftDestroyPlan(&copy);
    }
    clfftDestroyPlan(&plan);
    clReleaseMemObject(user), clReleaseCommandQueue(queue), clReleaseContext(elsewhere);
    *tally = t;
}

/* A pre-callback that does not compile (`local` 0), or an identity one asking for INT_MAX bytes of local
 * memory (`local` 1): set, bake, enqueue. */
static void callback_build(env_t *env, tally_t *tally, int local)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(env->context, 128);
    const char *broken = "float2 pre(__global void *in, uint k, __global void *u) { return }";
    const char *with_local =
        "float2 pre(__global void *in, uint k, __global void *u, __local void *l) { return ((__global float2 *)in)[k]; }";
    NOTE(s), NOTE(clfftSetPlanCallback(plan, "pre", local ? with_local : broken, local ? 0x7fffffff : 0, PRECALLBACK, NULL, 0));
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    t.error = forward(&t, plan, env->queue, &d, 64, 1, 2, 0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    *tally = t;
}
static void callback_that_does_not_compile(env_t *env, tally_t *tally) { callback_build(env, tally, 0); }
static void callback_local_memory_beyond_device(env_t *env, tally_t *tally) { callback_build(env, tally, 1); }

/* An n0 x n1 plan of this context baked on a queue of another context and enqueued there (`where` 0), baked
 * on its own context's queue and enqueued on the other's (1), both with buffers of the other context; or baked
 * and enqueued on its own context's queue with buffers of the other context (2). */
static void another_context(env_t *env, tally_t *tally, int where, size_t n0, size_t n1)
{
    tally_t t = {{0}, 0, -1};
    int s;
    cl_command_queue queue;
    cl_context elsewhere = other_context(env, &queue);
    clfftPlanHandle plan = c2c_plan(env->context, n0, n1, 2, 0, &s);
    data_t d = c2c_data(elsewhere, 2 * n0 * n1);
    cl_command_queue bake_on = where == 0 ? queue : env->queue, run_on = where == 2 ? env->queue : queue;
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &bake_on, NULL, NULL));
    NOTE(s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &run_on, 0, NULL, NULL, &d.in, &d.out, NULL));
    clFinish(run_on);
    if (s == CLFFT_SUCCESS) t.error = c2c_error(queue, &d, d.out, n0, n1, 2, 0, 1.0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    clReleaseCommandQueue(queue), clReleaseContext(elsewhere);
    *tally = t;
}
static void queue_of_another_context_in_bake(env_t *env, tally_t *tally) { another_context(env, tally, 0, 64, 1); }
static void queue_of_another_context_in_enqueue(env_t *env, tally_t *tally) { another_context(env, tally, 1, 64, 1); }
static void buffers_of_another_context(env_t *env, tally_t *tally) { another_context(env, tally, 2, 64, 1); }
static void buffers_of_another_context_64x64(env_t *env, tally_t *tally) { another_context(env, tally, 2, 64, 64); }
static void buffers_of_another_context_65536(env_t *env, tally_t *tally) { another_context(env, tally, 2, 65536, 1); }

/* A context of two devices (POCL_DEVICES="pthread pthread"): a plan baked on a queue of the first, enqueued
 * on a queue of the second. */
static void queue_of_another_device(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    cl_platform_id platform;
    cl_device_id devices[2];
    cl_uint count = 0;
    int s;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 2, devices, &count);
    REQUIRE(count == 2);
    cl_context context = clCreateContext(NULL, 2, devices, NULL, NULL, NULL);
    cl_command_queue first = clCreateCommandQueue(context, devices[0], 0, NULL);
    cl_command_queue second = clCreateCommandQueue(context, devices[1], 0, NULL);
    clfftPlanHandle plan = c2c_plan(context, 64, 1, 2, 0, &s);
    data_t d = c2c_data(context, 128);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &first, NULL, NULL));
    t.error = forward(&t, plan, second, &d, 64, 1, 2, 0);
    release_data(&d);
    clfftDestroyPlan(&plan);
    clReleaseCommandQueue(first), clReleaseCommandQueue(second), clReleaseContext(context);
    *tally = t;
}

/* A double-precision 64-point C2C plan, run where the device reports no fp64 (CLTRACE_NO_FP64=1) or where
 * every program build fails (CLTRACE_BREAK_BUILDS=1): bake and enqueue, the result checked in double. */
static void double_plan(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    size_t n = 64;
    clfftPlanHandle plan;
    NOTE(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &n));
    NOTE(clfftSetPlanPrecision(plan, CLFFT_DOUBLE)), clfftSetResultLocation(plan, CLFFT_OUTOFPLACE);
    double in[128], out[128], full[128];
    for (int i = 0; i < 128; i++) in[i] = full[i] = uniform();
    cl_mem a = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
    cl_mem b = clCreateBuffer(env->context, CL_MEM_READ_WRITE, sizeof out, NULL, NULL);
    NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    int s = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env->queue, 0, NULL, NULL, &a, &b, NULL);
    NOTE(s);
    clFinish(env->queue);
    if (s == CLFFT_SUCCESS) {
        clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        fft(full, 64, 1, -1);
        double worst = 0, top = 0;
        for (int k = 0; k < 64; k++) {
            double dr = out[2 * k] - full[2 * k], di = out[2 * k + 1] - full[2 * k + 1];
            double e = sqrt(dr * dr + di * di), m = sqrt(full[2 * k] * full[2 * k] + full[2 * k + 1] * full[2 * k + 1]);
            worst = e > worst ? e : worst, top = m > top ? m : top;
        }
        t.error = worst / top;
    }
    clReleaseMemObject(a), clReleaseMemObject(b);
    clfftDestroyPlan(&plan);
    *tally = t;
}

/* A plan created and baked, clfftTeardown and clfftSetup, then every kind of call on its handle. */
static void handle_from_before_teardown(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    NOTE(s), NOTE(clfftBakePlan(plan, 1, &env->queue, NULL, NULL));
    clfftSetupData setup;
    clfftInitSetupData(&setup);
    NOTE(clfftTeardown()), NOTE(clfftSetup(&setup));
    calls_on_handle(env, &t, plan);
    *tally = t;
}

/* A plan created, clfftTeardown and clfftSetup, then set and get batch and get length on its handle. */
static void setters_on_handle_from_before_teardown(env_t *env, tally_t *tally)
{
    tally_t t = {{0}, 0, -1};
    int s;
    size_t batch = 0, length[3] = {0};
    clfftPlanHandle plan = c2c_plan(env->context, 64, 1, 2, 0, &s);
    clfftSetupData setup;
    clfftInitSetupData(&setup);
    NOTE(s), NOTE(clfftTeardown()), NOTE(clfftSetup(&setup));
    NOTE(clfftSetPlanBatchSize(plan, 2)), NOTE(clfftGetPlanBatchSize(plan, &batch));
    NOTE(clfftGetPlanLength(plan, CLFFT_1D, length));
    *tally = t;
}

typedef struct {
    const char *name;
    void (*check)(env_t *env, tally_t *tally);
    const char *environment; /* what scripts/clfft-differential sets to run it, or NULL */
} named_check_t;

static const named_check_t checks[] = {
    {"null_input_buffers", null_input_buffers, NULL},
    {"null_context_create", null_context_create, NULL},
    {"null_context_copy", null_context_copy, NULL},
    {"null_queue_in_bake", null_queue_in_bake, NULL},
    {"null_queue_array_in_bake", null_queue_array_in_bake, NULL},
    {"null_queue_in_enqueue", null_queue_in_enqueue, NULL},
    {"null_queue_array_in_enqueue", null_queue_array_in_enqueue, NULL},
    {"wait_count_without_list", wait_count_without_list, NULL},
    {"unknown_handle", unknown_handle, NULL},
    {"destroyed_handle", destroyed_handle, NULL},
    {"double_destroy", double_destroy, NULL},
    {"two_threads_destroy", two_threads_destroy, NULL},
    {"lengths_product_overflows_at_create", lengths_product_overflows_at_create, NULL},
    {"lengths_product_overflows_at_set_length", lengths_product_overflows_at_set_length, NULL},
    {"in_stride_extent_overflows", in_stride_extent_overflows, NULL},
    {"batch_extent_overflows", batch_extent_overflows, NULL},
    {"data_beyond_max_alloc", data_beyond_max_alloc, NULL},
    {"batch_zero_64", batch_zero_64, NULL},
    {"batch_zero_64x64", batch_zero_64x64, NULL},
    {"batch_zero_65536", batch_zero_65536, NULL},
    {"planar_output_planes_overlap", planar_output_planes_overlap, NULL},
    {"planar_in_place_planes_overlap", planar_in_place_planes_overlap, NULL},
    {"transposed_1d", transposed_1d, NULL},
    {"transposed_3d", transposed_3d, NULL},
    {"transposed_3d_with_unit_axis", transposed_3d_with_unit_axis, NULL},
    {"transposed_2d_r2c", transposed_2d_r2c, NULL},
    {"transposed_in_place_not_packed", transposed_in_place_not_packed, NULL},
    {"transposed_in_place_8x8", transposed_in_place_8x8, NULL},
    {"transposed_in_place_12x8", transposed_in_place_12x8, NULL},
    {"transposed_in_place_post_callback", transposed_in_place_post_callback, NULL},
    {"callback_null_name", callback_null_name, NULL},
    {"callback_null_code", callback_null_code, NULL},
    {"callback_type_2", callback_type_2, NULL},
    {"callback_negative_buffer_count", callback_negative_buffer_count, NULL},
    {"callback_user_data_of_another_context", callback_user_data_of_another_context, NULL},
    {"copy_with_user_data_into_another_context", copy_with_user_data_into_another_context, NULL},
    {"callback_that_does_not_compile", callback_that_does_not_compile, NULL},
    {"callback_local_memory_beyond_device", callback_local_memory_beyond_device, NULL},
    {"queue_of_another_context_in_bake", queue_of_another_context_in_bake, NULL},
    {"queue_of_another_context_in_enqueue", queue_of_another_context_in_enqueue, NULL},
    {"buffers_of_another_context", buffers_of_another_context, NULL},
    {"buffers_of_another_context_64x64", buffers_of_another_context_64x64, NULL},
    {"buffers_of_another_context_65536", buffers_of_another_context_65536, NULL},
    {"queue_of_another_device", queue_of_another_device, "POCL_DEVICES=pthread pthread"},
    {"double_without_fp64", double_plan, "CLTRACE_NO_FP64=1"},
    {"kernel_build_fails", double_plan, "CLTRACE_BREAK_BUILDS=1;FFTX_CACHE_DIR=off"},
    {"handle_from_before_teardown", handle_from_before_teardown, NULL},
    {"setters_on_handle_from_before_teardown", setters_on_handle_from_before_teardown, NULL},
};

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
        {"tmp_buffer_is_the_data_in_place", {.sh = packed(C2C, 1, 1 << 16, 1, 2, 0), .in_place = 1, .tmp_is_input = 1,
                                             .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"tmp_buffer_of_another_context", {.sh = packed(C2C, 1, 1 << 16, 1, 2, 0), .in_place = 1, .tmp_extra = 16,
                                           .tmp_elsewhere = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"same_buffer_r2c_packed_of_another_context", {SET(packed(R2C, 1, 64, 1, 3, 0)), .same_buffer = 1,
                                                       .data_elsewhere = 1, .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"output_layout_overlaps_itself", {SET(((shape_t){{64, 1}, {1, 0}, {1, 0}, 64, 32, 1, 2, C2C})),
                                           .dir = CLFFT_FORWARD}, CLFFT_FORWARD},
        {"zero_input_stride", {SET(((shape_t){{64, 1}, {0, 0}, {1, 0}, 64, 64, 1, 2, C2C})), .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"zero_distance", {SET(((shape_t){{64, 1}, {1, 0}, {1, 0}, 0, 0, 1, 2, C2C})), .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"c2c_direction_5", {.sh = packed(C2C, 1, 64, 1, 2, 0), .dir = (clfftDirection)5}, CLFFT_BACKWARD},
        {"zero_output_stride", {SET(((shape_t){{64, 1}, {1, 0}, {0, 0}, 64, 64, 1, 2, C2C})), .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
        {"sub_buffer_too_small", {.sh = packed(C2C, 1, 1024, 1, 4, 0), .short_sub_buffer = 1, .dir = CLFFT_FORWARD},
         CLFFT_FORWARD},
    };
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) printf("%s\n", patterns[i].name);
        printf("tmp_buf_size_before_and_after_bake\n");
        /* A check that needs an environment: its name, a tab, and the assignments, separated by ';'. */
        for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
            printf("%s%s%s\n", checks[i].name, checks[i].environment ? "\t" : "", checks[i].environment ? checks[i].environment : "");
        return 0;
    }
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: clfft_calling_patterns --list | OUT [PATTERN]\n");
        return 2;
    }
    env_t env;
    env.out = fopen(argv[1], "a");
    cl_platform_id platform;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &env.device, NULL);
    env.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, NULL);
    env.queue = clCreateCommandQueue(env.context, env.device, 0, NULL);
    env.second_queue = clCreateCommandQueue(env.context, env.device, 0, NULL);
    clfftSetupData setup;
    clfftInitSetupData(&setup);
    clfftSetup(&setup);

    const char *only = argc == 3 ? argv[2] : NULL;
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
        if (!only || strcmp(only, patterns[i].name) == 0) run(&env, patterns[i].name, patterns[i].p, patterns[i].expect_dir);
    if (!only || strcmp(only, "tmp_buf_size_before_and_after_bake") == 0) tmp_size(&env);
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (only ? strcmp(only, checks[i].name) == 0 : !checks[i].environment) {
            tally_t tally;
            checks[i].check(&env, &tally);
            record(&env, checks[i].name, tally.st, tally.n, tally.error);
        }

    clfftTeardown();
    fclose(env.out);
    return 0;
}

/* Helpers shared by the C test programs: status checks, an OpenCL context on the first device, device buffers
 * in either precision and layout, and a naive DFT to check results against.
 *
 * Complex values on the host are doubles, real part at [2*i] and imaginary part at [2*i + 1]. */
#ifndef FFTX_C_TESTS_COMMON_H
#define FFTX_C_TESTS_COMMON_H

/* clFFT 2.12 applications use OpenCL 1.2 calls such as clCreateCommandQueue. */
#define CL_TARGET_OPENCL_VERSION 120

#include <clFFT.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Exits with the call's text and both values when a status is not the expected one. clFFT statuses and
 * OpenCL error codes share one number space, so this checks both kinds of call. */
#define EXPECT_STATUS(expected, call) expect_status((int)(expected), (int)(call), #call, __FILE__, __LINE__)
#define CHECK(call) EXPECT_STATUS(CLFFT_SUCCESS, call)
#define REQUIRE(condition) require((condition) != 0, #condition, __FILE__, __LINE__)

static inline void expect_status(int expected, int got, const char *call, const char *file, int line)
{
    if (got != expected) {
        fprintf(stderr, "%s:%d: %s returned %d, expected %d\n", file, line, call, got, expected);
        exit(1);
    }
}

static inline void require(int holds, const char *condition, const char *file, int line)
{
    if (!holds) {
        fprintf(stderr, "%s:%d: %s does not hold\n", file, line, condition);
        exit(1);
    }
}

/* Allocates or exits: a failed allocation is not what these programs test. */
static inline void *allocate(size_t bytes)
{
    void *memory = malloc(bytes > 0 ? bytes : 1);
    REQUIRE(memory != NULL);
    return memory;
}

struct cl_env {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
};

/* A context and an in-order queue on the first device of the first platform, as the Rust tests use. */
static inline struct cl_env open_cl(void)
{
    struct cl_env env;
    cl_platform_id platform;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &env.device, NULL));
    env.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    CHECK(err);
    env.queue = clCreateCommandQueue(env.context, env.device, 0, &err);
    CHECK(err);
    return env;
}

static inline void close_cl(struct cl_env *env)
{
    CHECK(clReleaseCommandQueue(env->queue));
    CHECK(clReleaseContext(env->context));
}

static inline int is_planar(clfftLayout layout)
{
    return layout == CLFFT_COMPLEX_PLANAR || layout == CLFFT_HERMITIAN_PLANAR;
}

static inline size_t real_bytes(clfftPrecision precision)
{
    return precision == CLFFT_DOUBLE ? sizeof(cl_double) : sizeof(cl_float);
}

/* Deterministic values in [-1, 1), rounded to the precision so that the reference sees exactly what the device
 * gets. */
static inline void fill_random(double *values, size_t count, unsigned long seed, clfftPrecision precision)
{
    size_t i;
    for (i = 0; i < 2 * count; i++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        values[i] = (double)(seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (precision != CLFFT_DOUBLE) {
            values[i] = (float)values[i];
        }
    }
}

/* Creates the buffers of count complex values in the plan's precision and layout: one buffer for an
 * interleaved layout, the real and the imaginary plane for a planar one. */
static inline void upload(const struct cl_env *env, const double *values, size_t count, clfftPrecision precision,
                          clfftLayout layout, cl_mem buffers[2])
{
    int planes = is_planar(layout) ? 2 : 1;
    size_t reals = 2 * count / planes;
    char *staging = allocate(reals * real_bytes(precision));
    int plane;
    for (plane = 0; plane < planes; plane++) {
        size_t i;
        cl_int err;
        for (i = 0; i < reals; i++) {
            double value = planes == 2 ? values[2 * i + plane] : values[i];
            if (precision == CLFFT_DOUBLE) {
                ((cl_double *)staging)[i] = value;
            } else {
                ((cl_float *)staging)[i] = (cl_float)value;
            }
        }
        buffers[plane] = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                        reals * real_bytes(precision), staging, &err);
        CHECK(err);
    }
    buffers[1] = buffers[planes - 1];
    free(staging);
}

/* Reads back what upload created. */
static inline void download(const struct cl_env *env, cl_mem buffers[2], size_t count, clfftPrecision precision,
                            clfftLayout layout, double *values)
{
    int planes = is_planar(layout) ? 2 : 1;
    size_t reals = 2 * count / planes;
    char *staging = allocate(reals * real_bytes(precision));
    int plane;
    for (plane = 0; plane < planes; plane++) {
        size_t i;
        CHECK(clEnqueueReadBuffer(env->queue, buffers[plane], CL_TRUE, 0, reals * real_bytes(precision), staging, 0,
                                  NULL, NULL));
        for (i = 0; i < reals; i++) {
            double value = precision == CLFFT_DOUBLE ? ((cl_double *)staging)[i] : ((cl_float *)staging)[i];
            if (planes == 2) {
                values[2 * i + plane] = value;
            } else {
                values[i] = value;
            }
        }
    }
    free(staging);
}

static inline void release_buffers(cl_mem buffers[2], clfftLayout layout)
{
    CHECK(clReleaseMemObject(buffers[0]));
    if (is_planar(layout)) {
        CHECK(clReleaseMemObject(buffers[1]));
    }
}

static inline size_t element_count(const size_t *lengths, int dim)
{
    size_t total = 1;
    int d;
    for (d = 0; d < dim; d++) {
        total *= lengths[d];
    }
    return total;
}

/* Position, in elements, of the element with packed index `index` (fastest dimension first) in an array
 * laid out with `strides` and starting at `start`. */
static inline size_t element_offset(size_t index, const size_t *lengths, const size_t *strides, int dim, size_t start)
{
    size_t offset = start;
    int d;
    for (d = 0; d < dim; d++) {
        offset += (index % lengths[d]) * strides[d];
        index /= lengths[d];
    }
    return offset;
}

/* Unnormalised DFT of a packed array (fastest dimension first): sign -1 forward, +1 backward, every output
 * multiplied by scale. It sums in long double, so its own error stays far below the double tolerance. */
static inline void naive_dft(const double *x, double *y, const size_t *lengths, int dim, int sign, double scale)
{
    const long double two_pi = 6.283185307179586476925286766559L;
    size_t total = element_count(lengths, dim);
    size_t k, n;
    for (k = 0; k < total; k++) {
        long double re = 0, im = 0;
        for (n = 0; n < total; n++) {
            /* The phase in turns, each dimension's product reduced exactly before the division. */
            long double turns = 0;
            size_t kr = k, nr = n;
            int d;
            for (d = 0; d < dim; d++) {
                turns += (long double)((kr % lengths[d]) * (nr % lengths[d]) % lengths[d]) / lengths[d];
                kr /= lengths[d];
                nr /= lengths[d];
            }
            {
                long double c = cosl(two_pi * turns), s = sign * sinl(two_pi * turns);
                re += x[2 * n] * c - x[2 * n + 1] * s;
                im += x[2 * n] * s + x[2 * n + 1] * c;
            }
        }
        y[2 * k] = (double)(re * scale);
        y[2 * k + 1] = (double)(im * scale);
    }
}

/* ||got - want|| / ||want|| over count complex values. */
static inline double relative_rms_error(const double *got, const double *want, size_t count)
{
    double error = 0, norm = 0;
    size_t i;
    for (i = 0; i < 2 * count; i++) {
        error += (got[i] - want[i]) * (got[i] - want[i]);
        norm += want[i] * want[i];
    }
    return sqrt(error / norm);
}

/* The accuracy every fftx transform must reach, as in the Rust tests. */
static inline double tolerance(clfftPrecision precision)
{
    return precision == CLFFT_DOUBLE ? 1e-15 : 3e-7;
}

#endif

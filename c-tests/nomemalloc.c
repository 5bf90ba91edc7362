/* The no-allocation mode (CLFFT_REQUEST_LIB_NOMEMALLOC) as a clFFT application sees it, run under the
 * alloc_probe.c shim: for each case it bakes and runs a 1D transform of an impulse and checks that
 * clfftGetTmpBufSize reports 0, that the OpenCL buffers created during bake and enqueue add up to at most 1%
 * of the data (so none exceeds it), and that the result matches the exact spectrum. One case adds callbacks
 * (a pre-callback that doubles each input and a post-callback that halves each result), which run inside the
 * plan's kernels and so allocate nothing either. One case switches the mode off for its plan and
 * checks that the probe then sees the scratch buffer, so the probe is known to see fftx's allocations.
 *
 * Run with CLFFT_REQUEST_LIB_NOMEMALLOC=1 and LD_PRELOAD naming the shim. */
#define _GNU_SOURCE
#include "common.h"
#include <dlfcn.h>
#include <fftx.h>
#include <string.h>

typedef void (*probe_start_fn)(void);
typedef void (*probe_stop_fn)(size_t *, size_t *, size_t *);

struct probe {
    probe_start_fn start;
    probe_stop_fn stop;
};

struct usage {
    size_t buffers, total, largest, tmp;
};

static const char *pre_doubled = "float2 pre_doubled(__global void *in, uint k, __global void *user) {\n"
                                 "    return ((__global float2 *)in)[k] * 2.0f;\n"
                                 "}\n";
static const char *post_halved = "void post_halved(__global void *out, uint k, __global void *user, float2 v) {\n"
                                 "    ((__global float2 *)out)[k] = v * 0.5f;\n"
                                 "}\n";

/* Runs one forward transform of an impulse at position `at` and returns what was allocated meanwhile; with
 * `callbacks`, through pre_doubled and post_halved (single precision, interleaved). */
static struct usage run(const struct cl_env *env, const struct probe *probe, size_t n, clfftPrecision precision,
                        clfftLayout layout, int in_place, int mode, int callbacks)
{
    const size_t at = 12345 % n;
    double *host = allocate(2 * n * sizeof(double));
    double *want = allocate(2 * n * sizeof(double));
    cl_mem input[2], output[2];
    clfftPlanHandle plan;
    struct usage used;
    size_t k;
    memset(host, 0, 2 * n * sizeof(double));
    host[2 * at] = 1.0;
    upload(env, host, n, precision, layout, input);
    upload(env, host, n, precision, layout, output);

    probe->start();
    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &n));
    CHECK(clfftSetPlanPrecision(plan, precision));
    CHECK(clfftSetLayout(plan, layout, layout));
    CHECK(clfftSetResultLocation(plan, in_place ? CLFFT_INPLACE : CLFFT_OUTOFPLACE));
    if (mode >= 0) {
        CHECK(fftxSetPlanNoMemAlloc(plan, mode));
    }
    if (callbacks) {
        CHECK(clfftSetPlanCallback(plan, "pre_doubled", pre_doubled, 0, PRECALLBACK, NULL, 0));
        CHECK(clfftSetPlanCallback(plan, "post_halved", post_halved, 0, POSTCALLBACK, NULL, 0));
    }
    CHECK(clfftBakePlan(plan, 1, (cl_command_queue *)&env->queue, NULL, NULL));
    CHECK(clfftGetTmpBufSize(plan, &used.tmp));
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, (cl_command_queue *)&env->queue, 0, NULL, NULL, input,
                                in_place ? NULL : output, NULL));
    CHECK(clFinish(env->queue));
    probe->stop(&used.buffers, &used.total, &used.largest);
    CHECK(clfftDestroyPlan(&plan));

    /* X_k = w_n^(k at): the phase reduced exactly before it meets the floating point. */
    for (k = 0; k < n; k++) {
        long double turns = (long double)((k * at) % n) / n;
        want[2 * k] = (double)cosl(6.283185307179586476925286766559L * turns);
        want[2 * k + 1] = (double)-sinl(6.283185307179586476925286766559L * turns);
    }
    download(env, in_place ? input : output, n, precision, layout, host);
    {
        double error = relative_rms_error(host, want, n);
        if (!(error <= tolerance(precision))) {
            fprintf(stderr, "n=%zu: error %.3e against the exact spectrum\n", n, error);
            exit(1);
        }
    }
    release_buffers(input, layout);
    release_buffers(output, layout);
    free(host);
    free(want);
    return used;
}

int main(void)
{
    struct cl_env env = open_cl();
    struct probe probe;
    static const struct {
        size_t n;
        clfftPrecision precision;
        clfftLayout layout;
        int in_place, callbacks;
    } cases[] = {
        {1u << 22, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, 1, 0}, {1u << 21, CLFFT_SINGLE, CLFFT_COMPLEX_PLANAR, 1, 0},
        {3u << 20, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, 0, 0}, {1u << 21, CLFFT_DOUBLE, CLFFT_COMPLEX_INTERLEAVED, 1, 0},
        {1u << 24, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, 1, 0}, {1u << 22, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, 1, 1},
    };
    size_t c;
    probe.start = (probe_start_fn)dlsym(RTLD_DEFAULT, "alloc_probe_start");
    probe.stop = (probe_stop_fn)dlsym(RTLD_DEFAULT, "alloc_probe_stop");
    if (!probe.start || !probe.stop) {
        fprintf(stderr, "run with LD_PRELOAD naming the alloc_probe shim\n");
        return 1;
    }
    REQUIRE(getenv("CLFFT_REQUEST_LIB_NOMEMALLOC") != NULL);
    CHECK(clfftSetup(NULL));
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t data = cases[c].n * 2 * real_bytes(cases[c].precision);
        struct usage used = run(&env, &probe, cases[c].n, cases[c].precision, cases[c].layout, cases[c].in_place, -1,
                                cases[c].callbacks);
        printf("n=%zu %s %s %s%s: tmp %zu, %zu buffers, %zu bytes = %.3f%% of the data, largest %zu\n", cases[c].n,
               cases[c].precision == CLFFT_DOUBLE ? "double" : "single",
               cases[c].layout == CLFFT_COMPLEX_PLANAR ? "planar" : "interleaved",
               cases[c].in_place ? "in place" : "out of place", cases[c].callbacks ? " with callbacks" : "", used.tmp,
               used.buffers, used.total,
               100.0 * used.total / data, used.largest);
        REQUIRE(used.tmp == 0);
        REQUIRE(used.buffers > 0);
        REQUIRE(used.total * 100 <= data);
    }
    {
        /* The control: the same transform with the mode off allocates its scratch, and the probe sees it. */
        size_t n = 1u << 20, data = n * 2 * sizeof(cl_float);
        struct usage used = run(&env, &probe, n, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, 1, 0, 0);
        printf("n=%zu single interleaved in place, mode off: tmp %zu, %zu buffers, largest %zu\n", n, used.tmp,
               used.buffers, used.largest);
        REQUIRE(used.tmp >= data);
        REQUIRE(used.largest >= data);
    }
    CHECK(clfftTeardown());
    close_cl(&env);
    return 0;
}

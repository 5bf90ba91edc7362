/* clFFT's callback sample, as its documentation writes it: a pre-callback that multiplies each input by a
 * per-element scalar from its user data, using local memory, and a post-callback that multiplies each result
 * by another. 1D, 64 points, single precision, batch 2, in place; compared with a naive DFT. */
#include "common.h"

#define N 64
#define BATCH 2

static const char *pre_mulval = "float2 pre_mulval(__global void *input, uint inoffset, __global void *userdata,\n"
                                "                  __local void *localmem)\n"
                                "{\n"
                                "    float scalar = *((__global float *)userdata + inoffset);\n"
                                "    float2 ret = *((__global float2 *)input + inoffset) * scalar;\n"
                                "    return ret;\n"
                                "}\n";

static const char *post_mulval = "void post_mulval(__global void *output, uint outoffset, __global void *userdata,\n"
                                 "                 float2 fftoutput)\n"
                                 "{\n"
                                 "    float scalar = *((__global float *)userdata + outoffset);\n"
                                 "    *((__global float2 *)output + outoffset) = fftoutput * scalar;\n"
                                 "}\n";

int main(void)
{
    struct cl_env env = open_cl();
    size_t length = N, i;
    double x[2 * N * BATCH], scaled[2 * N], want[2 * N * BATCH], got[2 * N * BATCH];
    cl_float pre_scalars[N * BATCH], post_scalars[N * BATCH];
    cl_mem data[2], pre_userdata, post_userdata;
    clfftSetupData setup;
    clfftPlanHandle plan;
    cl_event done;
    cl_int err;
    double error;
    int b;

    fill_random(x, N * BATCH, 5, CLFFT_SINGLE);
    for (i = 0; i < N * BATCH; i++) {
        pre_scalars[i] = (cl_float)(1 + i % 7) / 4;
        post_scalars[i] = (cl_float)(1 + i % 5) / 2;
    }
    for (b = 0; b < BATCH; b++) {
        for (i = 0; i < N; i++) {
            scaled[2 * i] = x[2 * (b * N + i)] * pre_scalars[b * N + i];
            scaled[2 * i + 1] = x[2 * (b * N + i) + 1] * pre_scalars[b * N + i];
        }
        naive_dft(scaled, want + 2 * N * b, &length, 1, -1, 1.0);
    }
    for (i = 0; i < N * BATCH; i++) {
        want[2 * i] *= post_scalars[i];
        want[2 * i + 1] *= post_scalars[i];
    }

    clfftInitSetupData(&setup);
    CHECK(clfftSetup(&setup));
    upload(&env, x, N * BATCH, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, data);
    pre_userdata = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof pre_scalars,
                                  pre_scalars, &err);
    CHECK(err);
    post_userdata = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof post_scalars,
                                   post_scalars, &err);
    CHECK(err);

    CHECK(clfftCreateDefaultPlan(&plan, env.context, CLFFT_1D, &length));
    CHECK(clfftSetPlanBatchSize(plan, BATCH));
    CHECK(clfftSetPlanCallback(plan, "pre_mulval", pre_mulval, 64, PRECALLBACK, &pre_userdata, 1));
    CHECK(clfftSetPlanCallback(plan, "post_mulval", post_mulval, 0, POSTCALLBACK, &post_userdata, 1));
    CHECK(clfftBakePlan(plan, 1, &env.queue, NULL, NULL));
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env.queue, 0, NULL, &done, data, NULL, NULL));
    CHECK(clWaitForEvents(1, &done));
    CHECK(clReleaseEvent(done));
    download(&env, data, N * BATCH, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, got);

    error = relative_rms_error(got, want, N * BATCH);
    printf("callbacks: relative RMS error %.2e\n", error);
    REQUIRE(error <= tolerance(CLFFT_SINGLE));

    CHECK(clfftDestroyPlan(&plan));
    CHECK(clfftTeardown());
    CHECK(clReleaseMemObject(pre_userdata));
    CHECK(clReleaseMemObject(post_userdata));
    release_buffers(data, CLFFT_COMPLEX_INTERLEAVED);
    close_cl(&env);
    return 0;
}

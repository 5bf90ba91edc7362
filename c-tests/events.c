/* Wait lists and returned events: a transform enqueued behind a user event must not run before that event
 * completes, and the event it returns must complete only with the whole transform. Twice: a one-kernel
 * plan on an in-order queue, and a plan of several kernels on an out-of-order queue (where only the events
 * fftx chains between its kernels keep them in order), when the device offers one. */
#define _POSIX_C_SOURCE 199309L
#include "common.h"

#include <time.h>

static cl_int execution_status(cl_event event)
{
    cl_int status;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

static void gated_transform(const struct cl_env *env, cl_command_queue queue, const size_t *lengths, int dim,
                            size_t batch, const char *what)
{
    struct cl_env observer = *env;
    size_t points = element_count(lengths, dim), b;
    double *input = allocate(2 * points * batch * sizeof(double));
    double *output = allocate(2 * points * batch * sizeof(double));
    double *expected = allocate(2 * points * sizeof(double));
    double error = 0;
    clfftPlanHandle plan;
    cl_mem buffers[2];
    cl_event gate, done;
    cl_int err;
    /* Long enough for these small transforms to finish many times over, had they not waited. */
    const struct timespec pause = {0, 200000000L};

    CHECK(clfftCreateDefaultPlan(&plan, env->context, (clfftDim)dim, lengths));
    CHECK(clfftSetPlanBatchSize(plan, batch));
    fill_random(input, points * batch, 7, CLFFT_SINGLE);
    upload(env, input, points * batch, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, buffers);

    gate = clCreateUserEvent(env->context, &err);
    CHECK(err);
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 1, &gate, &done, buffers, NULL, NULL));
    CHECK(clFlush(queue));
    REQUIRE(nanosleep(&pause, NULL) == 0);
    REQUIRE(execution_status(done) == CL_QUEUED || execution_status(done) == CL_SUBMITTED);

    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &done));
    REQUIRE(execution_status(done) == CL_COMPLETE);

    /* Read on another queue, so that nothing but the returned event orders the read after the transform. */
    observer.queue = clCreateCommandQueue(env->context, env->device, 0, &err);
    CHECK(err);
    download(&observer, buffers, points * batch, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, output);
    for (b = 0; b < batch; b++) {
        naive_dft(&input[2 * points * b], expected, lengths, dim, CLFFT_FORWARD, 1.0);
        error = fmax(error, relative_rms_error(&output[2 * points * b], expected, points));
    }
    printf("events, %s: error %.3e after the gate opened\n", what, error);
    REQUIRE(error <= tolerance(CLFFT_SINGLE));

    CHECK(clReleaseCommandQueue(observer.queue));
    CHECK(clReleaseEvent(done));
    CHECK(clReleaseEvent(gate));
    release_buffers(buffers, CLFFT_COMPLEX_INTERLEAVED);
    CHECK(clfftDestroyPlan(&plan));
    free(input);
    free(output);
    free(expected);
}

int main(void)
{
    struct cl_env env = open_cl();
    const size_t row = 60, volume[3] = {16, 12, 10};
    cl_command_queue_properties properties;

    CHECK(clfftSetup(NULL));
    gated_transform(&env, env.queue, &row, 1, 3, "one kernel, in-order queue");

    CHECK(clGetDeviceInfo(env.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof properties, &properties, NULL));
    if (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        cl_int err;
        cl_command_queue any_order =
            clCreateCommandQueue(env.context, env.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        CHECK(err);
        gated_transform(&env, any_order, volume, 3, 2, "several kernels, out-of-order queue");
        CHECK(clReleaseCommandQueue(any_order));
    } else {
        gated_transform(&env, env.queue, volume, 3, 2, "several kernels, in-order queue (no out-of-order here)");
    }
    CHECK(clfftTeardown());
    close_cl(&env);
    return 0;
}

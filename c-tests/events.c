/* Wait lists and returned events: a transform enqueued behind a user event must not run before that event
 * completes, and the event it returns must complete only with the whole transform. */
#define _POSIX_C_SOURCE 199309L
#include "common.h"

#include <time.h>

enum { LENGTH = 60, BATCH = 3 };

static cl_int execution_status(cl_event event)
{
    cl_int status;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

int main(void)
{
    struct cl_env env = open_cl(), observer = env;
    size_t length = LENGTH, b;
    double input[2 * LENGTH * BATCH], output[2 * LENGTH * BATCH], expected[2 * LENGTH];
    double error = 0;
    clfftPlanHandle plan;
    cl_mem buffers[2];
    cl_event gate, done;
    cl_int err;
    /* Long enough for this small transform to finish many times over, had it not waited. */
    const struct timespec pause = {0, 200000000L};

    CHECK(clfftSetup(NULL));
    CHECK(clfftCreateDefaultPlan(&plan, env.context, CLFFT_1D, &length));
    CHECK(clfftSetPlanBatchSize(plan, BATCH));
    fill_random(input, LENGTH * BATCH, 7, CLFFT_SINGLE);
    upload(&env, input, LENGTH * BATCH, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, buffers);

    gate = clCreateUserEvent(env.context, &err);
    CHECK(err);
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &env.queue, 1, &gate, &done, buffers, NULL, NULL));
    CHECK(clFlush(env.queue));
    REQUIRE(nanosleep(&pause, NULL) == 0);
    REQUIRE(execution_status(done) == CL_QUEUED || execution_status(done) == CL_SUBMITTED);

    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &done));
    REQUIRE(execution_status(done) == CL_COMPLETE);

    /* Read on another queue, so that nothing but the returned event orders the read after the transform. */
    observer.queue = clCreateCommandQueue(env.context, env.device, 0, &err);
    CHECK(err);
    download(&observer, buffers, LENGTH * BATCH, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, output);
    for (b = 0; b < BATCH; b++) {
        naive_dft(&input[2 * LENGTH * b], expected, &length, 1, CLFFT_FORWARD, 1.0);
        error = fmax(error, relative_rms_error(&output[2 * LENGTH * b], expected, LENGTH));
    }
    printf("events: error %.3e after the gate opened\n", error);
    REQUIRE(error <= tolerance(CLFFT_SINGLE));

    CHECK(clReleaseCommandQueue(observer.queue));
    CHECK(clReleaseEvent(done));
    CHECK(clReleaseEvent(gate));
    release_buffers(buffers, CLFFT_COMPLEX_INTERLEAVED);
    CHECK(clfftDestroyPlan(&plan));
    CHECK(clfftTeardown());
    close_cl(&env);
    return 0;
}

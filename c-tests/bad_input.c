/* Bad input gets clFFT's status codes, and never a crash: unknown and destroyed handles, null pointers,
 * unsupported lengths, bad queues and contexts, values outside their enums, buffers that are too small. */
#include "common.h"

/* A handle no plan has: handles count up from 1 and this many plans are never created here. */
#define UNKNOWN_PLAN ((clfftPlanHandle)987654321)

static void unknown_and_destroyed_handles(const struct cl_env *env)
{
    size_t length = 16, batch;
    clfftPlanHandle plan, stale;
    cl_command_queue queue = env->queue;
    cl_mem buffers[2] = {NULL, NULL};
    clfftPlanHandle handles[2];
    int i;

    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &length));
    stale = plan;
    CHECK(clfftDestroyPlan(&plan));
    REQUIRE(plan == 0);
    handles[0] = UNKNOWN_PLAN;
    handles[1] = stale;
    for (i = 0; i < 2; i++) {
        clfftPlanHandle handle = handles[i];
        EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftGetPlanBatchSize(handle, &batch));
        EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftSetPlanBatchSize(handle, 2));
        EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftSetPlanPrecision(handle, CLFFT_DOUBLE));
        EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftBakePlan(handle, 1, &queue, NULL, NULL));
        EXPECT_STATUS(CLFFT_INVALID_PLAN,
                      clfftEnqueueTransform(handle, CLFFT_FORWARD, 1, &queue, 0, NULL, NULL, buffers, NULL, NULL));
        EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftCopyPlan(&plan, env->context, handle));
        EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftDestroyPlan(&handle));
    }
    /* The handle a destroy cleared is no plan either. */
    EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftDestroyPlan(&plan));
}

static void null_pointers(const struct cl_env *env)
{
    size_t length = 16;
    clfftPlanHandle plan;
    cl_command_queue queue = env->queue;
    cl_uint version;

    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftGetVersion(NULL, &version, &version));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftCreateDefaultPlan(NULL, env->context, CLFFT_1D, &length));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftDestroyPlan(NULL));

    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &length));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftCopyPlan(NULL, env->context, plan));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftGetPlanBatchSize(plan, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftGetPlanLength(plan, CLFFT_1D, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftSetPlanLength(plan, CLFFT_1D, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftSetPlanInStride(plan, CLFFT_1D, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftGetPlanOutStride(plan, CLFFT_1D, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftGetLayout(plan, NULL, NULL));
    EXPECT_STATUS(CLFFT_INVALID_HOST_PTR, clfftGetTmpBufSize(plan, NULL));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE,
                  clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 0, NULL, NULL, NULL, NULL, NULL));
    CHECK(clfftDestroyPlan(&plan));
}

/* Unlike clFFT, fftx takes every length: 17 and 16 x 17 (Bluestein) are accepted like any other. */
static void lengths_beyond_clfft(const struct cl_env *env)
{
    size_t seventeen = 17, lengths_2d[2] = {16, 17};
    clfftPlanHandle plan;

    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &seventeen));
    CHECK(clfftDestroyPlan(&plan));
    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_2D, lengths_2d));
    CHECK(clfftSetPlanLength(plan, CLFFT_1D, &seventeen));
    CHECK(clfftDestroyPlan(&plan));
}

static void unsupported_and_invalid_values(const struct cl_env *env)
{
    size_t length = 16, zero = 0;
    clfftPlanHandle plan;

    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &zero));
    EXPECT_STATUS(CLFFT_NOTIMPLEMENTED, clfftCreateDefaultPlan(&plan, env->context, ENDDIMENSION, &length));

    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &length));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetPlanLength(plan, CLFFT_1D, &zero));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetPlanPrecision(plan, ENDPRECISION));
    EXPECT_STATUS(CLFFT_NOTIMPLEMENTED, clfftSetPlanPrecision(plan, CLFFT_SINGLE_FAST));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetLayout(plan, ENDLAYOUT, CLFFT_COMPLEX_INTERLEAVED));
    EXPECT_STATUS(CLFFT_NOTIMPLEMENTED, clfftSetLayout(plan, CLFFT_COMPLEX_INTERLEAVED, CLFFT_REAL));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetResultLocation(plan, ENDPLACE));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetPlanTransposeResult(plan, ENDTRANSPOSED));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetPlanScale(plan, ENDDIRECTION, 1.0f));
    {
        /* clFFT reads a scale's direction as forward for -1 and backward for anything else below ENDDIRECTION. */
        cl_float scale;
        CHECK(clfftSetPlanScale(plan, (clfftDirection)0, 0.25f));
        CHECK(clfftGetPlanScale(plan, CLFFT_BACKWARD, &scale));
        REQUIRE(scale == 0.25f);
        CHECK(clfftGetPlanScale(plan, (clfftDirection)-5, &scale));
        REQUIRE(scale == 0.25f);
        CHECK(clfftGetPlanScale(plan, CLFFT_FORWARD, &scale));
        REQUIRE(scale == 1.0f);
    }
    {
        /* clFFT takes one user-data buffer per callback. */
        cl_mem two[2] = {NULL, NULL};
        EXPECT_STATUS(CLFFT_NOTIMPLEMENTED, clfftSetPlanCallback(plan, "f", "float2 f() { return 0; }", 0, PRECALLBACK,
                                                                 two, 2));
    }
    /* None of the rejected values changed the plan. */
    {
        size_t got;
        clfftPrecision precision;
        CHECK(clfftGetPlanLength(plan, CLFFT_1D, &got));
        CHECK(clfftGetPlanPrecision(plan, &precision));
        REQUIRE(got == length && precision == CLFFT_SINGLE);
    }
    CHECK(clfftDestroyPlan(&plan));
}

static void bad_queues_contexts_and_buffers(const struct cl_env *env)
{
    size_t length = 16;
    clfftPlanHandle plan;
    cl_command_queue queue = env->queue, no_queue = NULL;
    cl_mem small[2], large[2];
    double values[2 * 16] = {0};
    cl_event event;

    EXPECT_STATUS(CLFFT_INVALID_CONTEXT, clfftCreateDefaultPlan(&plan, NULL, CLFFT_1D, &length));
    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &length));
    EXPECT_STATUS(CLFFT_INVALID_CONTEXT, clfftCopyPlan(&plan, NULL, plan));

    EXPECT_STATUS(CLFFT_INVALID_COMMAND_QUEUE, clfftBakePlan(plan, 1, &no_queue, NULL, NULL));
    EXPECT_STATUS(CLFFT_INVALID_COMMAND_QUEUE, clfftBakePlan(plan, 1, NULL, NULL, NULL));

    upload(env, values, 8, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, small);
    upload(env, values, 16, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, large);
    EXPECT_STATUS(CLFFT_INVALID_COMMAND_QUEUE,
                  clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &no_queue, 0, NULL, NULL, large, NULL, NULL));
    EXPECT_STATUS(CLFFT_INVALID_COMMAND_QUEUE,
                  clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, NULL, 0, NULL, NULL, large, NULL, NULL));
    EXPECT_STATUS(CLFFT_INVALID_EVENT_WAIT_LIST,
                  clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 2, NULL, NULL, large, NULL, NULL));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE,
                  clfftEnqueueTransform(plan, (clfftDirection)0, 1, &queue, 0, NULL, NULL, large, NULL, NULL));
    EXPECT_STATUS(CLFFT_INVALID_BUFFER_SIZE,
                  clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 0, NULL, NULL, small, NULL, NULL));

    /* After all of that the plan still works. */
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 0, NULL, &event, large, NULL, NULL));
    CHECK(clWaitForEvents(1, &event));
    CHECK(clReleaseEvent(event));

    /* A count of 0 queues still names the first, as in clFFT (whose header calls 0 valid for a bake), and the
     * enqueue writes its event. */
    CHECK(clfftBakePlan(plan, 0, &queue, NULL, NULL));
    event = NULL;
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 0, &queue, 0, NULL, &event, large, NULL, NULL));
    REQUIRE(event != NULL);
    CHECK(clWaitForEvents(1, &event));
    CHECK(clReleaseEvent(event));

    release_buffers(small, CLFFT_COMPLEX_INTERLEAVED);
    release_buffers(large, CLFFT_COMPLEX_INTERLEAVED);
    CHECK(clfftDestroyPlan(&plan));
}

/* Setup and teardown succeed any number of times, in any order. Teardown destroys the plans still alive;
 * the library goes on working after it, with or without a new setup, as clFFT's does. */
static void setup_and_teardown(const struct cl_env *env)
{
    size_t length = 16, batch;
    clfftPlanHandle plan;
    clfftSetupData setup;
    cl_command_queue queue = env->queue;
    double values[2 * 16] = {0};
    cl_mem buffers[2];
    cl_event event;

    CHECK(clfftInitSetupData(&setup));
    setup.debugFlags = 0;
    CHECK(clfftSetup(&setup));
    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &length));
    CHECK(clfftTeardown());
    EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftGetPlanBatchSize(plan, &batch));
    EXPECT_STATUS(CLFFT_INVALID_PLAN, clfftDestroyPlan(&plan));
    CHECK(clfftTeardown());

    /* After teardown, without a new setup. */
    upload(env, values, 16, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED, buffers);
    CHECK(clfftCreateDefaultPlan(&plan, env->context, CLFFT_1D, &length));
    CHECK(clfftBakePlan(plan, 1, &queue, NULL, NULL));
    CHECK(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 0, NULL, &event, buffers, NULL, NULL));
    CHECK(clWaitForEvents(1, &event));
    CHECK(clReleaseEvent(event));
    CHECK(clfftDestroyPlan(&plan));
    release_buffers(buffers, CLFFT_COMPLEX_INTERLEAVED);
    CHECK(clfftSetup(NULL));
    CHECK(clfftTeardown());
}

int main(void)
{
    struct cl_env env = open_cl();

    /* A second setup only replaces the debug flags. */
    CHECK(clfftSetup(NULL));
    CHECK(clfftSetup(NULL));
    unknown_and_destroyed_handles(&env);
    null_pointers(&env);
    lengths_beyond_clfft(&env);
    unsupported_and_invalid_values(&env);
    bad_queues_contexts_and_buffers(&env);
    setup_and_teardown(&env);

    close_cl(&env);
    printf("bad input: ok\n");
    return 0;
}

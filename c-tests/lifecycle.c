/* The whole life of clFFT plans as an application drives it: setup, plans in 1, 2 and 3 dimensions with every
 * setting changed from its default, bake, enqueue, read back, compare with a naive DFT, destroy, teardown. */
#include "common.h"

#include <string.h>

struct transform {
    const char *name;
    clfftDim dim;
    size_t lengths[3];
    size_t batch;
    clfftPrecision precision;
    clfftLayout in_layout, out_layout;
    clfftResultLocation placeness;
    clfftDirection direction;
    /* Zero leaves the plan's default (packed strides, distance = product of the lengths). */
    size_t in_strides[3], out_strides[3];
    size_t in_dist, out_dist;
    /* Zero leaves the plan's default scale for the direction. */
    float scale;
};

static const struct transform transforms[] = {
    {"1D single interleaved in place, batch 3", CLFFT_1D, {60}, 3, CLFFT_SINGLE, CLFFT_COMPLEX_INTERLEAVED,
     CLFFT_COMPLEX_INTERLEAVED, CLFFT_INPLACE, CLFFT_FORWARD, {0}, {0}, 0, 0, 0},
    {"1D double planar to interleaved, strided, backward", CLFFT_1D, {60}, 2, CLFFT_DOUBLE, CLFFT_COMPLEX_PLANAR,
     CLFFT_COMPLEX_INTERLEAVED, CLFFT_OUTOFPLACE, CLFFT_BACKWARD, {2}, {1}, 130, 61, 0},
    {"2D single interleaved to planar, padded rows, scaled", CLFFT_2D, {12, 10}, 2, CLFFT_SINGLE,
     CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_PLANAR, CLFFT_OUTOFPLACE, CLFFT_FORWARD, {1, 13}, {1, 12}, 133, 120,
     0.5f},
    {"2D double planar in place", CLFFT_2D, {12, 10}, 1, CLFFT_DOUBLE, CLFFT_COMPLEX_PLANAR, CLFFT_COMPLEX_PLANAR,
     CLFFT_INPLACE, CLFFT_FORWARD, {0}, {0}, 0, 0, 0},
    {"3D double interleaved out of place, scaled backward", CLFFT_3D, {4, 6, 5}, 2, CLFFT_DOUBLE,
     CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED, CLFFT_OUTOFPLACE, CLFFT_BACKWARD, {0}, {0}, 0, 0, 0.25f},
    {"3D single planar in place", CLFFT_3D, {4, 6, 5}, 1, CLFFT_SINGLE, CLFFT_COMPLEX_PLANAR, CLFFT_COMPLEX_PLANAR,
     CLFFT_INPLACE, CLFFT_FORWARD, {0}, {0}, 0, 0, 0},
};

/* Number of elements a buffer needs to hold every element the transform reaches. */
static size_t extent(const struct transform *t, const size_t *strides, size_t dist)
{
    size_t last = element_count(t->lengths, t->dim) - 1;
    return element_offset(last, t->lengths, strides, t->dim, (t->batch - 1) * dist) + 1;
}

/* Creates the plan of t, changing each setting t names; returns the strides and distances it ends up with. */
static clfftPlanHandle create_plan(const struct cl_env *env, const struct transform *t, size_t in_strides[3],
                                   size_t out_strides[3], size_t *in_dist, size_t *out_dist)
{
    clfftPlanHandle plan;
    CHECK(clfftCreateDefaultPlan(&plan, env->context, t->dim, t->lengths));
    CHECK(clfftSetPlanPrecision(plan, t->precision));
    CHECK(clfftSetLayout(plan, t->in_layout, t->out_layout));
    CHECK(clfftSetResultLocation(plan, t->placeness));
    CHECK(clfftSetPlanBatchSize(plan, t->batch));
    if (t->in_strides[0] != 0) {
        memcpy(in_strides, t->in_strides, sizeof t->in_strides);
        memcpy(out_strides, t->out_strides, sizeof t->out_strides);
        CHECK(clfftSetPlanInStride(plan, t->dim, in_strides));
        CHECK(clfftSetPlanOutStride(plan, t->dim, out_strides));
        CHECK(clfftSetPlanDistance(plan, t->in_dist, t->out_dist));
    }
    if (t->scale != 0) {
        CHECK(clfftSetPlanScale(plan, t->direction, t->scale));
    }
    CHECK(clfftGetPlanInStride(plan, t->dim, in_strides));
    CHECK(clfftGetPlanOutStride(plan, t->dim, out_strides));
    CHECK(clfftGetPlanDistance(plan, in_dist, out_dist));
    return plan;
}

/* Runs t through the clFFT API and returns its error against the naive DFT. */
static double run(const struct cl_env *env, const struct transform *t)
{
    size_t in_strides[3], out_strides[3], in_dist, out_dist, tmp_bytes;
    size_t count = element_count(t->lengths, t->dim);
    clfftPlanHandle plan = create_plan(env, t, in_strides, out_strides, &in_dist, &out_dist);
    int in_place = t->placeness == CLFFT_INPLACE;
    size_t in_extent = extent(t, in_strides, in_dist);
    size_t out_extent = in_place ? in_extent : extent(t, out_strides, out_dist);
    double *input = allocate(2 * in_extent * sizeof(double));
    double *output = allocate(2 * out_extent * sizeof(double));
    double *packed = allocate(2 * count * sizeof(double));
    double *expected = allocate(2 * count * sizeof(double));
    double *got = allocate(2 * count * sizeof(double));
    double error = 0, scale;
    cl_float plan_scale;
    cl_mem in_buffers[2], out_buffers[2];
    cl_command_queue queue = env->queue;
    cl_event done;
    size_t b, i;

    fill_random(input, in_extent, count + t->batch, t->precision);
    upload(env, input, in_extent, t->precision, t->in_layout, in_buffers);
    if (!in_place) {
        memset(output, 0, 2 * out_extent * sizeof(double));
        upload(env, output, out_extent, t->precision, t->out_layout, out_buffers);
    }

    EXPECT_STATUS(CLFFT_INVALID_OPERATION, clfftGetTmpBufSize(plan, &tmp_bytes));
    CHECK(clfftBakePlan(plan, 1, &queue, NULL, NULL));
    CHECK(clfftGetTmpBufSize(plan, &tmp_bytes));
    CHECK(clfftEnqueueTransform(plan, t->direction, 1, &queue, 0, NULL, &done, in_buffers,
                                in_place ? NULL : out_buffers, NULL));
    CHECK(clWaitForEvents(1, &done));
    CHECK(clReleaseEvent(done));
    download(env, in_place ? in_buffers : out_buffers, out_extent, t->precision,
             in_place ? t->in_layout : t->out_layout, output);

    /* The default backward scale is 1/N in double; the accessor reports it rounded to float. */
    scale = t->scale != 0 ? t->scale : t->direction == CLFFT_BACKWARD ? 1.0 / count : 1.0;
    CHECK(clfftGetPlanScale(plan, t->direction, &plan_scale));
    REQUIRE(plan_scale == (cl_float)scale);
    for (b = 0; b < t->batch; b++) {
        for (i = 0; i < count; i++) {
            size_t from = element_offset(i, t->lengths, in_strides, t->dim, b * in_dist);
            size_t to = element_offset(i, t->lengths, out_strides, t->dim, b * out_dist);
            memcpy(&packed[2 * i], &input[2 * from], 2 * sizeof(double));
            memcpy(&got[2 * i], &output[2 * to], 2 * sizeof(double));
        }
        naive_dft(packed, expected, t->lengths, t->dim, t->direction, scale);
        error = fmax(error, relative_rms_error(got, expected, count));
    }

    CHECK(clfftDestroyPlan(&plan));
    REQUIRE(plan == 0);
    release_buffers(in_buffers, t->in_layout);
    if (!in_place) {
        release_buffers(out_buffers, t->out_layout);
    }
    free(input);
    free(output);
    free(packed);
    free(expected);
    free(got);
    return error;
}

int main(void)
{
    struct cl_env env = open_cl();
    clfftSetupData setup;
    size_t i;
    int failures = 0;

    CHECK(clfftInitSetupData(&setup));
    CHECK(clfftSetup(&setup));
    for (i = 0; i < sizeof transforms / sizeof transforms[0]; i++) {
        const struct transform *t = &transforms[i];
        double error = run(&env, t);
        int passed = error <= tolerance(t->precision);
        printf("%s: error %.3e (tolerance %.0e) %s\n", t->name, error, tolerance(t->precision),
               passed ? "ok" : "FAILED");
        failures += !passed;
    }
    CHECK(clfftTeardown());
    close_cl(&env);
    return failures == 0 ? 0 : 1;
}

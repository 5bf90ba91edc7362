/* On a device without double precision (cltrace with CLTRACE_NO_FP64=1 hides it), double-precision plans of
 * both APIs get their status while single-precision ones run as before. */
#include "common.h"

#include <fftx.h>

int main(void)
{
    struct cl_env env = open_cl();
    size_t length = 64;
    cl_command_queue queue = env.queue;
    clfftPlanHandle plan;
    fftxHandle handle;

    CHECK(clfftSetup(NULL));
    CHECK(clfftCreateDefaultPlan(&plan, env.context, CLFFT_1D, &length));
    CHECK(clfftSetPlanPrecision(plan, CLFFT_DOUBLE));
    EXPECT_STATUS(CLFFT_DEVICE_NO_DOUBLE, clfftBakePlan(plan, 1, &queue, NULL, NULL));
    CHECK(clfftSetPlanPrecision(plan, CLFFT_SINGLE));
    CHECK(clfftBakePlan(plan, 1, &queue, NULL, NULL));
    CHECK(clfftDestroyPlan(&plan));

    EXPECT_STATUS(FFTX_INVALID_DEVICE, fftxPlan1d(&handle, 64, FFTX_Z2Z, 1));
    CHECK(fftxPlan1d(&handle, 64, FFTX_C2C, 1));
    CHECK(fftxDestroy(handle));
    CHECK(clfftTeardown());
    close_cl(&env);
    printf("no fp64: ok\n");
    return 0;
}

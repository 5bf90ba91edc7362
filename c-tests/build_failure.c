/* Every program build fails (cltrace with CLTRACE_BREAK_BUILDS=1, the program cache off): both APIs answer
 * with their build-failure status and keep working, and FFTX_LOG=error shows each failure with the OpenCL
 * build log (checked by tests/c_programs.rs). */
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
    EXPECT_STATUS(CL_BUILD_PROGRAM_FAILURE, clfftBakePlan(plan, 1, &queue, NULL, NULL));
    EXPECT_STATUS(CL_BUILD_PROGRAM_FAILURE, clfftBakePlan(plan, 1, &queue, NULL, NULL));
    CHECK(clfftDestroyPlan(&plan));
    EXPECT_STATUS(FFTX_SETUP_FAILED, fftxPlan1d(&handle, 64, FFTX_C2C, 1));
    CHECK(clfftTeardown());
    close_cl(&env);
    printf("build failure: ok\n");
    return 0;
}

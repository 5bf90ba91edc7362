/* clFFT's CLFFT_DUMP_PROGRAMS setup flag: baking writes the plan's programs to the current folder. Prints the
 * handles of a one-kernel and a two-pass plan for tests/c_programs.rs, which checks the files. */
#include "common.h"

int main(void)
{
    struct cl_env env = open_cl();
    clfftSetupData setup;
    size_t short_length = 64, long_length = 8192;
    cl_command_queue queue = env.queue;
    clfftPlanHandle one_kernel, two_passes;

    CHECK(clfftInitSetupData(&setup));
    setup.debugFlags = CLFFT_DUMP_PROGRAMS;
    CHECK(clfftSetup(&setup));
    CHECK(clfftCreateDefaultPlan(&one_kernel, env.context, CLFFT_1D, &short_length));
    CHECK(clfftCreateDefaultPlan(&two_passes, env.context, CLFFT_1D, &long_length));
    CHECK(clfftBakePlan(one_kernel, 1, &queue, NULL, NULL));
    CHECK(clfftBakePlan(two_passes, 1, &queue, NULL, NULL));
    printf("%lu %lu\n", (unsigned long)one_kernel, (unsigned long)two_passes);
    CHECK(clfftTeardown());
    close_cl(&env);
    return 0;
}

/* Bakes plans whose programs are built from source and exits at once, without running them or tearing the
 * library down: run with empty caches, the process must still exit cleanly, with every program's disk-cache
 * entry written (the exit waits for the writes). Plans of long passes keep the cache writer compiling when
 * the process exits. */
#include "common.h"

int main(void)
{
    struct cl_env env = open_cl();
    clfftSetupData setup;
    CHECK(clfftInitSetupData(&setup));
    CHECK(clfftSetup(&setup));
    const size_t lengths[][2] = {{1024, 1}, {4096, 1}, {1000, 1}, {64, 64}};
    for (int i = 0; i < 4; i++) {
        clfftPlanHandle plan;
        const size_t dims = lengths[i][1] > 1 ? 2 : 1;
        CHECK(clfftCreateDefaultPlan(&plan, env.context, dims == 2 ? CLFFT_2D : CLFFT_1D, lengths[i]));
        CHECK(clfftSetPlanPrecision(plan, i % 2 ? CLFFT_DOUBLE : CLFFT_SINGLE));
        CHECK(clfftBakePlan(plan, 1, &env.queue, NULL, NULL));
        CHECK(clfftDestroyPlan(&plan));
    }
    printf("baked 4 plans; exiting without running them\n");
    return 0;
}

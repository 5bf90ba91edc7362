/* Two threads bake two different plans at the same moment. Run under cltrace with the program cache off
 * (tests/c_programs.rs), each plan builds one program, and the two builds must overlap in time: no lock of
 * the library is held across a compile of an unrelated plan. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <pthread.h>

struct job {
    const struct cl_env *env;
    size_t length;
    pthread_barrier_t *start;
};

static void *bake(void *argument)
{
    struct job *job = argument;
    cl_command_queue queue = job->env->queue;
    clfftPlanHandle plan;

    CHECK(clfftCreateDefaultPlan(&plan, job->env->context, CLFFT_1D, &job->length));
    pthread_barrier_wait(job->start);
    CHECK(clfftBakePlan(plan, 1, &queue, NULL, NULL));
    CHECK(clfftDestroyPlan(&plan));
    return NULL;
}

int main(void)
{
    struct cl_env env = open_cl();
    pthread_barrier_t start;
    pthread_t threads[2];
    struct job jobs[2];
    int i;

    CHECK(clfftSetup(NULL));
    REQUIRE(pthread_barrier_init(&start, NULL, 2) == 0);
    jobs[0] = (struct job){&env, 60, &start};
    jobs[1] = (struct job){&env, 64, &start};
    for (i = 0; i < 2; i++) {
        REQUIRE(pthread_create(&threads[i], NULL, bake, &jobs[i]) == 0);
    }
    for (i = 0; i < 2; i++) {
        REQUIRE(pthread_join(threads[i], NULL) == 0);
    }
    pthread_barrier_destroy(&start);
    CHECK(clfftTeardown());
    close_cl(&env);
    printf("concurrent bake: ok\n");
    return 0;
}

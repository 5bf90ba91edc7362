/* A program reads why a call failed, through both APIs: fftxGetErrorString and fftxGetLastErrorMessage
 * (fftx.h), fftxClfftGetErrorString (clFFT_fftx.h). The last message is the calling thread's latest failure,
 * the words FFTX_LOG=error prints. */
#include "common.h"
#include <clFFT_fftx.h>
#include <fftx.h>
#include <string.h>

static int starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

int main(void)
{
    struct cl_env env = open_cl();
    clfftSetupData setup;
    CHECK(clfftInitSetupData(&setup));
    CHECK(clfftSetup(&setup));

    REQUIRE(strcmp(fftxGetLastErrorMessage(), "") == 0);
    REQUIRE(starts_with(fftxGetErrorString(FFTX_INVALID_SIZE), "FFTX_INVALID_SIZE: "));
    REQUIRE(starts_with(fftxGetErrorString(FFTX_SUCCESS), "FFTX_SUCCESS: "));
    REQUIRE(strcmp(fftxGetErrorString(12345), "not an fftxResult") == 0);
    REQUIRE(starts_with(fftxClfftGetErrorString(CLFFT_INVALID_PLAN), "CLFFT_INVALID_PLAN: "));
    REQUIRE(strcmp(fftxClfftGetErrorString(CLFFT_INVALID_BUFFER_SIZE), "CL_INVALID_BUFFER_SIZE") == 0);

    /* A clFFT call that fails: its name and reason. */
    size_t length = 64;
    clfftPlanHandle plan;
    CHECK(clfftCreateDefaultPlan(&plan, env.context, CLFFT_1D, &length));
    EXPECT_STATUS(CLFFT_INVALID_ARG_VALUE, clfftSetPlanPrecision(plan, (clfftPrecision)7));
    const char *message = fftxGetLastErrorMessage();
    printf("clFFT: %s\n", message);
    REQUIRE(starts_with(message, "clfftSetPlanPrecision: "));
    REQUIRE(strlen(message) > strlen("clfftSetPlanPrecision: "));
    /* A call that succeeds leaves the message of the latest failure. */
    CHECK(clfftSetPlanBatchSize(plan, 2));
    REQUIRE(starts_with(fftxGetLastErrorMessage(), "clfftSetPlanPrecision: "));
    CHECK(clfftDestroyPlan(&plan));

    /* A cuFFT-style call that fails. */
    fftxHandle handle;
    EXPECT_STATUS(FFTX_INVALID_SIZE, fftxPlan1d(&handle, 0, FFTX_C2C, 1));
    message = fftxGetLastErrorMessage();
    printf("fftx: %s\n", message);
    REQUIRE(starts_with(message, "fftxPlan1d: "));

    CHECK(clfftTeardown());
    close_cl(&env);
    printf("error messages ok\n");
    return 0;
}

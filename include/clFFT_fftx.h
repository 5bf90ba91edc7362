/* clFFT_fftx.h: fftx's extensions to the clFFT 2.12 API, for programs that know they run on fftx. clFFT.h
 * declares the API itself; a program that uses these calls needs fftx's libclFFT.so. */
#ifndef CLFFT_FFTX_H
#define CLFFT_FFTX_H

#include <clFFT.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A sentence naming a clFFT status, or the OpenCL error of that number ("CL_INVALID_BUFFER_SIZE"). Any value
 * is accepted; the string is static. */
const char *fftxClfftGetErrorString(clfftStatus status);

/* Sets the planner's overrides for a plan, in FFTX_TUNE's syntax (docs/environment.md: "profile=gpu;max_leaf=64"
 * plans as for a GPU with kernels of at most 64 points). NULL restores FFTX_TUNE's, "" overrides nothing. Like
 * any setting, it un-bakes the plan. CLFFT_INVALID_ARG_VALUE for an item fftx does not know. */
clfftStatus fftxClfftSetPlanTuning(clfftPlanHandle plHandle, const char *spec);

/* The message of the calling thread's latest failed fftx call, of either API, with the words FFTX_LOG=error
 * prints: the function's name, then why it failed. An empty string before any failure. The pointer stays
 * valid until the thread's next failed call. */
const char *fftxGetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif

#endif

/* fftx: the clFFT release whose interface this library implements.
 *
 * libfftx.so is a binary drop-in for clFFT 2.12.2; these macros carry that version so that code written for
 * clFFT (and clfftInitSetupData in clFFT.h) sees the numbers it expects.
 */
#ifndef CLFFT_VERSION_H
#define CLFFT_VERSION_H

#define clfftVersionMajor 2
#define clfftVersionMinor 12
#define clfftVersionPatch 2

#endif

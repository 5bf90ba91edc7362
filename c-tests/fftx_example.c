/* The README's cuFFT-style example: 2D transforms of 64 x 48 complex values, forward on device memory and back
 * on host memory. The inverse is unnormalised, as in cuFFT: the round trip multiplies every value by 64 * 48. */
#include <fftx.h>
#include <math.h>
#include <stdio.h>

#define NX 64
#define NY 48

int main(void)
{
    static fftxComplex data[NX * NY];
    for (int i = 0; i < NX * NY; i++)
        data[i] = (fftxComplex){(float)(i % 7), (float)(i % 5) - 2.0f};

    fftxHandle plan;
    void *device;
    if (fftxPlan2d(&plan, NX, NY, FFTX_C2C) != FFTX_SUCCESS || fftxMalloc(&device, sizeof data) != FFTX_SUCCESS)
        return 1;
    fftxMemcpy(device, data, sizeof data, FFTX_MEMCPY_HOST_TO_DEVICE);
    fftxExecC2C(plan, device, device, FFTX_FORWARD); /* device memory: runs on the plan's queue */
    static fftxComplex spectrum[NX * NY];
    fftxMemcpy(spectrum, device, sizeof spectrum, FFTX_MEMCPY_DEVICE_TO_HOST);
    fftxExecC2C(plan, spectrum, spectrum, FFTX_INVERSE); /* host memory: copied through the device */

    double worst = 0;
    for (int i = 0; i < NX * NY; i++)
        worst = fmax(worst, hypot(spectrum[i].x / (NX * NY) - data[i].x, spectrum[i].y / (NX * NY) - data[i].y));
    printf("round trip: largest error %.2e\n", worst);
    fftxFree(device);
    fftxDestroy(plan);
    return worst < 1e-5 ? 0 : 1;
}

/* The README's clFFT drop-in example: a program written for clFFT 2.12, unchanged, run on fftx. A 1D forward
 * transform of 1024 points in place; for input x[n] = n mod 4 every bin but 0, 256, 512 and 768 is zero. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clFFT.h>
#include <math.h>
#include <stdio.h>

#define N 1024

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, NULL);

    static float data[2 * N];
    for (int n = 0; n < N; n++)
        data[2 * n] = (float)(n % 4);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, NULL);

    clfftSetupData setup;
    clfftInitSetupData(&setup);
    clfftSetup(&setup);
    clfftPlanHandle plan;
    size_t length = N;
    clfftCreateDefaultPlan(&plan, context, CLFFT_1D, &length);
    clfftBakePlan(plan, 1, &queue, NULL, NULL);
    clfftStatus status = clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 0, NULL, NULL, &buffer, NULL, NULL);
    clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL);

    double off_bins = 0;
    for (int k = 0; k < N; k++)
        if (k % 256 != 0)
            off_bins = fmax(off_bins, hypot(data[2 * k], data[2 * k + 1]));
    printf("status %d, X[0] = %g, largest off-bin magnitude %.2e\n", status, data[0], off_bins);
    clfftDestroyPlan(&plan);
    clfftTeardown();
    clReleaseMemObject(buffer);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return status == CLFFT_SUCCESS && data[0] == 1536.0f && off_bins < 1e-3 ? 0 : 1;
}

/* A thin C layer over the header-only VkFFT (OpenCL backend), so the Rust benchmark can drive it through
 * four plain functions. VkFFT keeps pointers to the handles and sizes it is given, so they live in the same
 * heap block as the application. */
#define VKFFT_BACKEND 3
#define CL_TARGET_OPENCL_VERSION 120
#include <stdint.h>
#include <stdlib.h>
#include <vkFFT.h>

typedef struct {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_mem input;
    cl_mem output;
    uint64_t dims;
    uint64_t lengths[3]; /* fastest-varying first */
    uint64_t batch;
    int double_precision;
    int real_to_complex;
} fftx_vkfft_desc;

typedef struct {
    VkFFTApplication app;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_mem input;
    cl_mem output;
    uint64_t input_bytes;
    uint64_t output_bytes;
} fftx_vkfft_plan;

/* Plans an out-of-place forward transform from desc->input to desc->output, both packed. Returns a
 * VkFFTResult (0 on success) and stores the plan in *out. */
int fftx_vkfft_create(const fftx_vkfft_desc *desc, void **out) {
    fftx_vkfft_plan *plan = calloc(1, sizeof(fftx_vkfft_plan));
    if (!plan) return VKFFT_ERROR_MALLOC_FAILED;
    plan->device = desc->device;
    plan->context = desc->context;
    plan->queue = desc->queue;
    plan->input = desc->input;
    plan->output = desc->output;

    VkFFTConfiguration config = {0};
    config.FFTdim = desc->dims;
    uint64_t real_bytes = desc->double_precision ? 8 : 4;
    uint64_t input_row = desc->lengths[0];
    uint64_t output_row = desc->real_to_complex ? desc->lengths[0] / 2 + 1 : desc->lengths[0];
    uint64_t input_points = input_row, output_points = output_row;
    for (uint64_t d = 0; d < 3; d++) {
        config.size[d] = d < desc->dims ? desc->lengths[d] : 1;
        if (d > 0) {
            input_points *= config.size[d];
            output_points *= config.size[d];
        }
    }
    /* Strides are in elements of each buffer's type: reals for an R2C input, complex values otherwise. */
    config.inputBufferStride[0] = input_row;
    config.bufferStride[0] = output_row;
    for (uint64_t d = 1; d < 3; d++) {
        config.inputBufferStride[d] = config.inputBufferStride[d - 1] * config.size[d];
        config.bufferStride[d] = config.bufferStride[d - 1] * config.size[d];
    }
    uint64_t input_value_bytes = desc->real_to_complex ? real_bytes : 2 * real_bytes;
    plan->input_bytes = input_points * desc->batch * input_value_bytes;
    plan->output_bytes = output_points * desc->batch * 2 * real_bytes;

    config.numberBatches = desc->batch;
    config.doublePrecision = desc->double_precision ? 1 : 0;
    config.performR2C = desc->real_to_complex ? 1 : 0;
    config.makeForwardPlanOnly = 1;
    config.isInputFormatted = 1;
    config.device = &plan->device;
    config.context = &plan->context;
    config.commandQueue = &plan->queue;
    config.inputBuffer = &plan->input;
    config.inputBufferSize = &plan->input_bytes;
    config.buffer = &plan->output;
    config.bufferSize = &plan->output_bytes;

    VkFFTResult result = initializeVkFFT(&plan->app, config);
    if (result != VKFFT_SUCCESS) {
        free(plan);
        return result;
    }
    *out = plan;
    return VKFFT_SUCCESS;
}

/* Enqueues one forward transform on the plan's queue; the caller waits with clFinish. */
int fftx_vkfft_forward(void *handle) {
    fftx_vkfft_plan *plan = handle;
    VkFFTLaunchParams launch = {0};
    launch.commandQueue = &plan->queue;
    launch.inputBuffer = &plan->input;
    launch.buffer = &plan->output;
    return VkFFTAppend(&plan->app, -1, &launch);
}

void fftx_vkfft_destroy(void *handle) {
    fftx_vkfft_plan *plan = handle;
    deleteVkFFT(&plan->app);
    free(plan);
}

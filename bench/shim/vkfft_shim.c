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
    int complex_to_real;
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
    int inverse;
} fftx_vkfft_plan;

/* Plans an out-of-place transform from desc->input to desc->output, both packed: forward for c2c and r2c,
 * inverse (unnormalized) for c2r. Returns a VkFFTResult (0 on success) and stores the plan in *out. */
int fftx_vkfft_create(const fftx_vkfft_desc *desc, void **out) {
    fftx_vkfft_plan *plan = calloc(1, sizeof(fftx_vkfft_plan));
    if (!plan) return VKFFT_ERROR_MALLOC_FAILED;
    plan->device = desc->device;
    plan->context = desc->context;
    plan->queue = desc->queue;
    plan->input = desc->input;
    plan->output = desc->output;
    plan->inverse = desc->complex_to_real;

    VkFFTConfiguration config = {0};
    config.FFTdim = desc->dims;
    int real = desc->real_to_complex || desc->complex_to_real;
    uint64_t real_bytes = desc->double_precision ? 8 : 4;
    /* VkFFT's main buffer ("buffer") always holds the complex side: the Hermitian half for real transforms.
     * The other side is a "formatted" buffer: the input of a forward transform, the output of an inverse. */
    uint64_t complex_row = real ? desc->lengths[0] / 2 + 1 : desc->lengths[0];
    uint64_t formatted_row = desc->lengths[0];
    uint64_t complex_points = complex_row, formatted_points = formatted_row;
    for (uint64_t d = 0; d < 3; d++) {
        config.size[d] = d < desc->dims ? desc->lengths[d] : 1;
        if (d > 0) {
            complex_points *= config.size[d];
            formatted_points *= config.size[d];
        }
    }
    /* Strides are in elements of each buffer's type: reals for the real side, complex values otherwise. */
    uint64_t formatted_strides[3] = {formatted_row, 0, 0};
    config.bufferStride[0] = complex_row;
    for (uint64_t d = 1; d < 3; d++) {
        formatted_strides[d] = formatted_strides[d - 1] * config.size[d];
        config.bufferStride[d] = config.bufferStride[d - 1] * config.size[d];
    }
    uint64_t complex_bytes = complex_points * desc->batch * 2 * real_bytes;
    uint64_t formatted_bytes = formatted_points * desc->batch * (real ? real_bytes : 2 * real_bytes);

    config.numberBatches = desc->batch;
    config.doublePrecision = desc->double_precision ? 1 : 0;
    config.performR2C = real ? 1 : 0;
    config.device = &plan->device;
    config.context = &plan->context;
    config.commandQueue = &plan->queue;
    if (plan->inverse) {
        plan->input_bytes = complex_bytes;
        plan->output_bytes = formatted_bytes;
        config.makeInversePlanOnly = 1;
        config.isOutputFormatted = 1;
        for (uint64_t d = 0; d < 3; d++) config.outputBufferStride[d] = formatted_strides[d];
        config.buffer = &plan->input;
        config.bufferSize = &plan->input_bytes;
        config.outputBuffer = &plan->output;
        config.outputBufferSize = &plan->output_bytes;
    } else {
        plan->input_bytes = formatted_bytes;
        plan->output_bytes = complex_bytes;
        config.makeForwardPlanOnly = 1;
        config.isInputFormatted = 1;
        for (uint64_t d = 0; d < 3; d++) config.inputBufferStride[d] = formatted_strides[d];
        config.inputBuffer = &plan->input;
        config.inputBufferSize = &plan->input_bytes;
        config.buffer = &plan->output;
        config.bufferSize = &plan->output_bytes;
    }

    VkFFTResult result = initializeVkFFT(&plan->app, config);
    if (result != VKFFT_SUCCESS) {
        free(plan);
        return result;
    }
    *out = plan;
    return VKFFT_SUCCESS;
}

/* Enqueues one transform in the plan's direction on its queue; the caller waits with clFinish. An inverse
 * works in its input buffer, which the benchmark restores before every run. */
int fftx_vkfft_enqueue(void *handle) {
    fftx_vkfft_plan *plan = handle;
    VkFFTLaunchParams launch = {0};
    launch.commandQueue = &plan->queue;
    if (plan->inverse) {
        launch.buffer = &plan->input;
        launch.outputBuffer = &plan->output;
        return VkFFTAppend(&plan->app, 1, &launch);
    }
    launch.inputBuffer = &plan->input;
    launch.buffer = &plan->output;
    return VkFFTAppend(&plan->app, -1, &launch);
}

void fftx_vkfft_destroy(void *handle) {
    fftx_vkfft_plan *plan = handle;
    deleteVkFFT(&plan->app);
    free(plan);
}

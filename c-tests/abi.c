/* The binary interface of clFFT 2.12.2, checked at compile time (enum values, struct layout, function types)
 * and at run time (version, setup data). Built against either clFFT.h, it must compile without a warning. */
#include "common.h"

#include <stddef.h>
#include <string.h>

/* A C99 compile-time assertion: an array of negative size is an error. */
#define STATIC_CHECK(name, condition) typedef char static_check_##name[(condition) ? 1 : -1]

STATIC_CHECK(version, clfftVersionMajor == 2 && clfftVersionMinor == 12 && clfftVersionPatch == 2);

STATIC_CHECK(success, CLFFT_SUCCESS == 0);
STATIC_CHECK(opencl_codes, CLFFT_DEVICE_NOT_FOUND == -1 && CLFFT_OUT_OF_RESOURCES == -5 &&
                               CLFFT_BUILD_PROGRAM_FAILURE == -11 && CLFFT_INVALID_VALUE == -30 &&
                               CLFFT_INVALID_CONTEXT == -34 && CLFFT_INVALID_COMMAND_QUEUE == -36 &&
                               CLFFT_INVALID_HOST_PTR == -37 && CLFFT_INVALID_MEM_OBJECT == -38 &&
                               CLFFT_INVALID_ARG_INDEX == -49 && CLFFT_INVALID_ARG_VALUE == -50 &&
                               CLFFT_INVALID_EVENT_WAIT_LIST == -57 && CLFFT_INVALID_OPERATION == -59 &&
                               CLFFT_INVALID_BUFFER_SIZE == -61 && CLFFT_INVALID_GLOBAL_WORK_SIZE == -63);
STATIC_CHECK(clfft_codes, CLFFT_BUGCHECK == 4096 && CLFFT_NOTIMPLEMENTED == 4097 &&
                              CLFFT_TRANSPOSED_NOTIMPLEMENTED == 4098 && CLFFT_FILE_NOT_FOUND == 4099 &&
                              CLFFT_FILE_CREATE_FAILURE == 4100 && CLFFT_VERSION_MISMATCH == 4101 &&
                              CLFFT_INVALID_PLAN == 4102 && CLFFT_DEVICE_NO_DOUBLE == 4103 &&
                              CLFFT_DEVICE_MISMATCH == 4104 && CLFFT_ENDSTATUS == 4105);
STATIC_CHECK(dim, CLFFT_1D == 1 && CLFFT_2D == 2 && CLFFT_3D == 3 && ENDDIMENSION == 4);
STATIC_CHECK(layout, CLFFT_COMPLEX_INTERLEAVED == 1 && CLFFT_COMPLEX_PLANAR == 2 && CLFFT_HERMITIAN_INTERLEAVED == 3 &&
                         CLFFT_HERMITIAN_PLANAR == 4 && CLFFT_REAL == 5 && ENDLAYOUT == 6);
STATIC_CHECK(precision, CLFFT_SINGLE == 1 && CLFFT_DOUBLE == 2 && CLFFT_SINGLE_FAST == 3 && CLFFT_DOUBLE_FAST == 4 &&
                            ENDPRECISION == 5);
STATIC_CHECK(direction, CLFFT_FORWARD == -1 && CLFFT_BACKWARD == 1 && CLFFT_MINUS == -1 && CLFFT_PLUS == 1 &&
                            ENDDIRECTION == 2);
STATIC_CHECK(placeness, CLFFT_INPLACE == 1 && CLFFT_OUTOFPLACE == 2 && ENDPLACE == 3);
STATIC_CHECK(transposed, CLFFT_NOTRANSPOSE == 1 && CLFFT_TRANSPOSED == 2 && ENDTRANSPOSED == 3);
STATIC_CHECK(callback_type, PRECALLBACK == 0 && POSTCALLBACK == 1);
STATIC_CHECK(dump_programs, CLFFT_DUMP_PROGRAMS == 1);

/* Enums are passed as int-sized values. */
STATIC_CHECK(enum_sizes, sizeof(clfftStatus) == sizeof(int) && sizeof(clfftDim) == sizeof(int) &&
                             sizeof(clfftLayout) == sizeof(int) && sizeof(clfftPrecision) == sizeof(int) &&
                             sizeof(clfftDirection) == sizeof(int) && sizeof(clfftResultLocation) == sizeof(int) &&
                             sizeof(clfftResultTransposed) == sizeof(int) && sizeof(clfftCallbackType) == sizeof(int));
STATIC_CHECK(plan_handle, sizeof(clfftPlanHandle) == sizeof(size_t));
STATIC_CHECK(setup_data_size, sizeof(clfftSetupData) == 24);
STATIC_CHECK(setup_data_fields, offsetof(clfftSetupData, major) == 0 && offsetof(clfftSetupData, minor) == 4 &&
                                    offsetof(clfftSetupData, patch) == 8 &&
                                    offsetof(clfftSetupData, debugFlags) == 16);

typedef void(CL_CALLBACK *bake_notify)(clfftPlanHandle, void *);

/* Every function with the type clFFT 2.12.2 gives it: a header that declares another type fails to compile
 * (incompatible pointer types are an error under -Werror). */
struct clfft_functions {
    clfftStatus (*init_setup_data)(clfftSetupData *);
    clfftStatus (*setup)(const clfftSetupData *);
    clfftStatus (*teardown)(void);
    clfftStatus (*get_version)(cl_uint *, cl_uint *, cl_uint *);
    clfftStatus (*create_default_plan)(clfftPlanHandle *, cl_context, clfftDim, const size_t *);
    clfftStatus (*copy_plan)(clfftPlanHandle *, cl_context, clfftPlanHandle);
    clfftStatus (*bake_plan)(clfftPlanHandle, cl_uint, cl_command_queue *, bake_notify, void *);
    clfftStatus (*destroy_plan)(clfftPlanHandle *);
    clfftStatus (*get_plan_context)(clfftPlanHandle, cl_context *);
    clfftStatus (*get_plan_precision)(clfftPlanHandle, clfftPrecision *);
    clfftStatus (*set_plan_precision)(clfftPlanHandle, clfftPrecision);
    clfftStatus (*get_plan_scale)(clfftPlanHandle, clfftDirection, cl_float *);
    clfftStatus (*set_plan_scale)(clfftPlanHandle, clfftDirection, cl_float);
    clfftStatus (*get_plan_batch_size)(clfftPlanHandle, size_t *);
    clfftStatus (*set_plan_batch_size)(clfftPlanHandle, size_t);
    clfftStatus (*get_plan_dim)(clfftPlanHandle, clfftDim *, cl_uint *);
    clfftStatus (*set_plan_dim)(clfftPlanHandle, clfftDim);
    clfftStatus (*get_plan_length)(clfftPlanHandle, clfftDim, size_t *);
    clfftStatus (*set_plan_length)(clfftPlanHandle, clfftDim, const size_t *);
    clfftStatus (*get_plan_in_stride)(clfftPlanHandle, clfftDim, size_t *);
    clfftStatus (*set_plan_in_stride)(clfftPlanHandle, clfftDim, size_t *);
    clfftStatus (*get_plan_out_stride)(clfftPlanHandle, clfftDim, size_t *);
    clfftStatus (*set_plan_out_stride)(clfftPlanHandle, clfftDim, size_t *);
    clfftStatus (*get_plan_distance)(clfftPlanHandle, size_t *, size_t *);
    clfftStatus (*set_plan_distance)(clfftPlanHandle, size_t, size_t);
    clfftStatus (*get_layout)(clfftPlanHandle, clfftLayout *, clfftLayout *);
    clfftStatus (*set_layout)(clfftPlanHandle, clfftLayout, clfftLayout);
    clfftStatus (*get_result_location)(clfftPlanHandle, clfftResultLocation *);
    clfftStatus (*set_result_location)(clfftPlanHandle, clfftResultLocation);
    clfftStatus (*get_plan_transpose_result)(clfftPlanHandle, clfftResultTransposed *);
    clfftStatus (*set_plan_transpose_result)(clfftPlanHandle, clfftResultTransposed);
    clfftStatus (*get_tmp_buf_size)(clfftPlanHandle, size_t *);
    clfftStatus (*set_plan_callback)(clfftPlanHandle, const char *, const char *, int, clfftCallbackType, cl_mem *,
                                     int);
    clfftStatus (*enqueue_transform)(clfftPlanHandle, clfftDirection, cl_uint, cl_command_queue *, cl_uint,
                                     const cl_event *, cl_event *, cl_mem *, cl_mem *, cl_mem);
};

static const struct clfft_functions functions = {
    .init_setup_data = clfftInitSetupData,
    .setup = clfftSetup,
    .teardown = clfftTeardown,
    .get_version = clfftGetVersion,
    .create_default_plan = clfftCreateDefaultPlan,
    .copy_plan = clfftCopyPlan,
    .bake_plan = clfftBakePlan,
    .destroy_plan = clfftDestroyPlan,
    .get_plan_context = clfftGetPlanContext,
    .get_plan_precision = clfftGetPlanPrecision,
    .set_plan_precision = clfftSetPlanPrecision,
    .get_plan_scale = clfftGetPlanScale,
    .set_plan_scale = clfftSetPlanScale,
    .get_plan_batch_size = clfftGetPlanBatchSize,
    .set_plan_batch_size = clfftSetPlanBatchSize,
    .get_plan_dim = clfftGetPlanDim,
    .set_plan_dim = clfftSetPlanDim,
    .get_plan_length = clfftGetPlanLength,
    .set_plan_length = clfftSetPlanLength,
    .get_plan_in_stride = clfftGetPlanInStride,
    .set_plan_in_stride = clfftSetPlanInStride,
    .get_plan_out_stride = clfftGetPlanOutStride,
    .set_plan_out_stride = clfftSetPlanOutStride,
    .get_plan_distance = clfftGetPlanDistance,
    .set_plan_distance = clfftSetPlanDistance,
    .get_layout = clfftGetLayout,
    .set_layout = clfftSetLayout,
    .get_result_location = clfftGetResultLocation,
    .set_result_location = clfftSetResultLocation,
    .get_plan_transpose_result = clfftGetPlanTransposeResult,
    .set_plan_transpose_result = clfftSetPlanTransposeResult,
    .get_tmp_buf_size = clfftGetTmpBufSize,
    .set_plan_callback = clfftSetPlanCallback,
    .enqueue_transform = clfftEnqueueTransform,
};

int main(void)
{
    cl_uint major = 0, minor = 0, patch = 0;
    clfftSetupData setup;

    /* Called through its address, which a header whose definition is not static takes from the library. */
    memset(&setup, 0xff, sizeof setup);
    CHECK(functions.init_setup_data(&setup));
    REQUIRE(setup.major == 2 && setup.minor == 12 && setup.patch == 2 && setup.debugFlags == 0);

    CHECK(clfftSetup(&setup));
    CHECK(clfftGetVersion(&major, &minor, &patch));
    REQUIRE(major == 2 && minor == 12 && patch == 2);
    CHECK(clfftTeardown());

    /* Setup accepts NULL, and the library may be set up again after a teardown. */
    CHECK(clfftSetup(NULL));
    CHECK(clfftTeardown());
    printf("abi: ok\n");
    return 0;
}
